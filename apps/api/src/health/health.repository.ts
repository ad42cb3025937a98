import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The database's side of the health check. */
@Injectable()
export class HealthRepository {
  constructor(private readonly db: DataSource) {}

  /** Whether the database answers a trivial query. */
  async databaseAnswers(): Promise<boolean> {
    return this.db.query('SELECT 1').then(
      () => true,
      () => false,
    );
  }
}
