import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { affectedCount, rows } from '../common/sql.js';
import type { Columns } from '../database/rows.js';

/** INVITE_COLUMNS. */
export type InviteRow = Columns<
  'invites',
  'id' | 'email' | 'created_by' | 'created_at' | 'expires_at' | 'used_at' | 'used_by'
> & {
  /** Computed: expires_at <= now(). */
  expired: boolean;
};

const INVITE_COLUMNS = 'id, email, created_by, created_at, expires_at, used_at, used_by, expires_at <= now() AS expired';

/** How long a used or expired invitation stays in the Admin area's list. */
export const INVITE_HISTORY_DAYS = 90;

/**
 * Deletes invitations used or expired more than INVITE_HISTORY_DAYS ago (the audit trail keeps
 * their making and revoking); answers how many. The worker's housekeeping runs it.
 */
export async function deleteStaleInvites(db: Pick<DataSource, 'query'>): Promise<number> {
  return affectedCount(
    await db.query(`DELETE FROM invites WHERE coalesce(used_at, expires_at) < now() - make_interval(days => $1)`, [
      INVITE_HISTORY_DAYS,
    ]),
  );
}

/** SQL of the invitations administrators make; a registration uses one through InstanceSettingsRepository. */
@Injectable()
export class InvitesRepository {
  constructor(private readonly db: DataSource) {}

  async insert(
    manager: EntityManager,
    invite: { tokenHash: string; email: string | null; createdBy: string; days: number },
  ): Promise<InviteRow> {
    const [row] = await rows<InviteRow>(
      manager,
      `INSERT INTO invites (token_hash, email, created_by, expires_at) VALUES ($1, $2, $3, now() + make_interval(days => $4))
       RETURNING ${INVITE_COLUMNS}`,
      [invite.tokenHash, invite.email, invite.createdBy, invite.days],
    );
    return row!;
  }

  /** Every invitation, newest first (an instance makes them by hand: a few hundred at most). */
  async list(limit: number): Promise<InviteRow[]> {
    return rows<InviteRow>(this.db, `SELECT ${INVITE_COLUMNS} FROM invites ORDER BY created_at DESC, id DESC LIMIT $1`, [limit]);
  }

  /** Deletes the invitation (a link not yet used then works no more); the row it was, or null when there is none. */
  async delete(manager: EntityManager, id: string): Promise<InviteRow | null> {
    const found = await rows<InviteRow>(manager, `DELETE FROM invites WHERE id::text = $1 RETURNING ${INVITE_COLUMNS}`, [id]);
    return found[0] ?? null;
  }
}
