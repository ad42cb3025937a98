import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Totals over the whole instance for the Admin area. */
@Injectable()
export class InstanceStatsRepository {
  constructor(private readonly db: DataSource) {}

  async totals(): Promise<{
    users: number;
    disabled_users: number;
    files: number;
    bytes: string;
    shares: number;
    active_shares: number;
    visits_today: string;
  }> {
    const [row] = await this.db.query(
      `SELECT
         (SELECT count(*)::int FROM users) AS users,
         (SELECT count(*)::int FROM users WHERE disabled_at IS NOT NULL) AS disabled_users,
         (SELECT count(*)::int FROM files WHERE deleted_at IS NULL) AS files,
         (SELECT coalesce(sum(used_bytes), 0)::bigint FROM users) AS bytes,
         (SELECT count(*)::int FROM shares) AS shares,
         (SELECT count(*)::int FROM share_gate g JOIN users sharer ON sharer.id = g.user_id
           WHERE NOT g.revoked AND NOT g.expired AND NOT g.consumed AND NOT g.trashed AND sharer.disabled_at IS NULL) AS active_shares,
         (SELECT coalesce(sum(visits), 0)::bigint FROM share_visit_hours
           WHERE hour >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS visits_today`,
    );
    return row;
  }
}
