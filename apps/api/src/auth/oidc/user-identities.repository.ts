import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { affectedCount } from '../../common/sql.js';
import { Administrators } from '../accounts/administrators.js';
import type { AuthUser } from '../auth-context.js';
import { USER_COLUMNS, toAuthUser } from '../accounts/users.repository.js';

/** Accounts at an OpenID provider (issuer + subject) and the Sharedown account each one signs in to. */
@Injectable()
export class UserIdentitiesRepository {
  constructor(
    private readonly db: DataSource,
    private readonly administrators: Administrators,
  ) {}

  async findUser(issuer: string, subject: string): Promise<AuthUser | null> {
    const rows: Array<Parameters<typeof toAuthUser>[0]> = await this.db.query(
      `SELECT ${USER_COLUMNS} FROM user_identities i JOIN users u ON u.id = i.user_id WHERE i.issuer = $1 AND i.subject = $2`,
      [issuer, subject],
    );
    return rows[0] ? toAuthUser(rows[0], this.administrators) : null;
  }

  /** Links the identity to the account; false when the identity is already linked (to anyone). */
  async link(
    issuer: string,
    subject: string,
    userId: string,
    email: string | null,
    manager: EntityManager = this.db.manager,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO user_identities (issuer, subject, user_id, email) VALUES ($1, $2, $3, $4)
       ON CONFLICT (issuer, subject) DO NOTHING RETURNING user_id`,
      [issuer, subject, userId, email],
    );
    return rows.length > 0;
  }

  /**
   * Marks the account's address proven, when it is the address the provider vouched for. The only
   * change a sign-in through a provider may make to an existing account besides linking it.
   */
  async markEmailVerified(userId: string, email: string): Promise<boolean> {
    return (
      affectedCount(
        await this.db.query(
          `UPDATE users SET email_verified_at = now() WHERE id = $1 AND lower(email) = lower($2) AND email_verified_at IS NULL`,
          [userId, email],
        ),
      ) > 0
    );
  }
}
