import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { rows } from '../../common/sql.js';
import type { Columns } from '../../database/rows.js';

/** How new accounts may be made: by anyone, with an administrator's invitation, or not at all. */
export const REGISTRATION_MODES = ['open', 'invite', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/** An invitation as its registration claims it. */
export interface ClaimedInvite {
  id: string;
  email: string | null;
}

/**
 * SQL of the instance's settings row (at most one; missing or null until an administrator
 * chooses) and of the invitations a registration uses.
 */
@Injectable()
export class InstanceSettingsRepository {
  constructor(private readonly db: DataSource) {}

  /** The registration mode an administrator chose; null while none did. */
  async registrationMode(manager: EntityManager = this.db.manager): Promise<RegistrationMode | null> {
    const found = await rows<Columns<'instance_settings', 'registration', { registration: RegistrationMode | null }>>(
      manager,
      `SELECT registration FROM instance_settings WHERE id`,
    );
    return found[0]?.registration ?? null;
  }

  /** Sets the mode, making the row when the instance has none yet (founded when it has accounts). */
  async setRegistrationMode(manager: EntityManager, mode: RegistrationMode): Promise<void> {
    await manager.query(
      `INSERT INTO instance_settings AS st (id, founded, registration) SELECT true, EXISTS (SELECT 1 FROM users), $1
       ON CONFLICT (id) DO UPDATE SET registration = $1, updated_at = now()`,
      [mode],
    );
  }

  /**
   * Uses the invitation with this digest for a registration of `email`, in the caller's
   * transaction: only an unexpired, unused one, and one bound to an address only for that
   * address. The row lock makes parallel registrations with one invitation take turns; the
   * second finds it used. Null when it cannot be used.
   */
  async claimInvite(manager: EntityManager, tokenHash: string, email: string): Promise<ClaimedInvite | null> {
    const found = await rows<ClaimedInvite>(
      manager,
      `UPDATE invites SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         AND (email IS NULL OR lower(email) = lower($2))
       RETURNING id, email`,
      [tokenHash, email],
    );
    return found[0] ?? null;
  }

  /** Why an invitation cannot be used: unknown (null), used, expired, or bound to another address. */
  async inviteState(tokenHash: string): Promise<{ used: boolean; expired: boolean; email: string | null } | null> {
    const found = await rows<
      Columns<'invites', 'email'> & {
        /** Computed: used_at IS NOT NULL, expires_at <= now(). */
        used: boolean;
        expired: boolean;
      }
    >(this.db, `SELECT used_at IS NOT NULL AS used, expires_at <= now() AS expired, email FROM invites WHERE token_hash = $1`, [
      tokenHash,
    ]);
    return found[0] ?? null;
  }

  /** Records which account the invitation made (after the account exists, in the same transaction). */
  async recordInviteUse(manager: EntityManager, inviteId: string, userId: string): Promise<void> {
    await manager.query(`UPDATE invites SET used_by = $2 WHERE id = $1`, [inviteId, userId]);
  }
}
