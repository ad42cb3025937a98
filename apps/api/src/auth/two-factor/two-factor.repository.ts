import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { affectedCount, rows } from '../../common/sql.js';
import type { Columns } from '../../database/rows.js';

export interface TwoFactorState {
  /** The sealed secret (see TotpSecretBox), pending or enabled; null when none was set up. */
  sealedSecret: string | null;
  enabled: boolean;
  /** The last accepted TOTP time step; codes of this step or earlier are refused. */
  lastStep: number | null;
}

/** The SQL of two-factor authentication: the TOTP secret on the user row, and the recovery codes. */
@Injectable()
export class TwoFactorRepository {
  constructor(private readonly db: DataSource) {}

  async state(userId: string, manager: EntityManager = this.db.manager): Promise<TwoFactorState | null> {
    const found = await rows<
      Columns<'users', 'totp_secret' | 'totp_last_step'> & {
        /** Computed: totp_enabled_at IS NOT NULL. */
        enabled: boolean;
      }
    >(manager, `SELECT totp_secret, totp_enabled_at IS NOT NULL AS enabled, totp_last_step FROM users WHERE id = $1`, [userId]);
    const row = found[0];
    if (!row) return null;
    return {
      sealedSecret: row.totp_secret,
      enabled: row.enabled,
      lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    };
  }

  /** Replaces a pending secret; false when 2FA is already on (turn it off first). */
  async storePending(userId: string, sealedSecret: string): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE users SET totp_secret = $2, totp_last_step = NULL WHERE id = $1 AND totp_enabled_at IS NULL`,
      [userId, sealedSecret],
    );
    return affectedCount(result) === 1;
  }

  /**
   * Records `step` as used, only when it is later than any step used before: of two requests with
   * the same code, exactly one gets true.
   */
  async acceptStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE users SET totp_last_step = $2
       WHERE id = $1 AND totp_enabled_at IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2)`,
      [userId, step],
    );
    return affectedCount(result) === 1;
  }

  /** Marks an unused recovery code used; of two requests with the same code, exactly one gets true. */
  async consumeRecoveryCode(userId: string, digest: string): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE recovery_codes SET used_at = now()
       WHERE id = (SELECT id FROM recovery_codes WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL LIMIT 1)
         AND used_at IS NULL`,
      [userId, digest],
    );
    return affectedCount(result) === 1;
  }

  /**
   * Turns 2FA on with the pending secret that was checked (`sealedSecret`; a setup started
   * meanwhile replaced it, and then nothing changes) and `step` already used.
   */
  async enable(manager: EntityManager, userId: string, sealedSecret: string, step: number): Promise<boolean> {
    const result = await manager.query(
      `UPDATE users SET totp_enabled_at = now(), totp_last_step = $3
       WHERE id = $1 AND totp_enabled_at IS NULL AND totp_secret = $2`,
      [userId, sealedSecret, step],
    );
    return affectedCount(result) === 1;
  }

  /** Turns 2FA off and forgets the secret and the recovery codes; false when it was not on. */
  async disable(manager: EntityManager, userId: string): Promise<boolean> {
    const result = await manager.query(
      `UPDATE users SET totp_enabled_at = NULL, totp_secret = NULL, totp_last_step = NULL
       WHERE id = $1 AND totp_enabled_at IS NOT NULL`,
      [userId],
    );
    if (affectedCount(result) !== 1) return false;
    await manager.query(`DELETE FROM recovery_codes WHERE user_id = $1`, [userId]);
    return true;
  }

  /** Locks the user row for the rest of the transaction; false when 2FA is not on. */
  async lockEnabled(manager: EntityManager, userId: string): Promise<boolean> {
    const found = await rows(manager, `SELECT 1 FROM users WHERE id = $1 AND totp_enabled_at IS NOT NULL FOR UPDATE`, [userId]);
    return found.length === 1;
  }

  /** Deletes every recovery code of the account, used or not, and stores the new set. */
  async replaceRecoveryCodes(manager: EntityManager, userId: string, digests: string[]): Promise<void> {
    await manager.query(`DELETE FROM recovery_codes WHERE user_id = $1`, [userId]);
    await manager.query(`INSERT INTO recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`, [userId, digests]);
  }

  async unusedRecoveryCodes(userId: string): Promise<number> {
    const found = await rows<{ n: number }>(
      this.db.manager,
      `SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    );
    return found[0]?.n ?? 0;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
