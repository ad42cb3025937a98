import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { affectedCount, rows } from '../../common/sql.js';

/** What proving an address did to its account. */
export type Proof = 'already-verified' | 'verified' | 'claimed';

/** The account changes an e-mail code makes, inside the caller's transaction. */
@Injectable()
export class EmailAccountsRepository {
  /**
   * Locks the account's row and tells whether an administrator disabled it: a code's use is judged
   * on it in the code's transaction, so a disabling at the same moment comes before or after, and a
   * refusal leaves the code unused and the account as it was.
   */
  async lockDisabled(userId: string, manager: EntityManager): Promise<boolean> {
    const found = await rows<{ disabled: boolean }>(
      manager,
      `SELECT disabled_at IS NOT NULL AS disabled FROM users WHERE id = $1 FOR UPDATE`,
      [userId],
    );
    return found[0]?.disabled ?? false;
  }

  /** Marks the address proven; the account otherwise stays as it is. */
  async markVerified(userId: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1`, [userId]);
  }

  /**
   * The mailbox's owner took the account over without its session: when the address was never
   * proven, whoever set its password, signed in or made tokens may not have been the owner of the
   * address (anyone could register it), so the password goes, every session ends and every API
   * token is revoked. A proven account only gets signed in. The second factor stays either way.
   */
  async claim(userId: string, manager: EntityManager): Promise<Proof> {
    const claimed = affectedCount(
      await manager.query(
        `UPDATE users SET email_verified_at = now(), password_hash = NULL WHERE id = $1 AND email_verified_at IS NULL`,
        [userId],
      ),
    );
    if (!claimed) return 'already-verified';
    await this.endEverything(userId, manager);
    return 'claimed';
  }

  /**
   * A new password after a reset: the address is proven, every session ends (and, if it was never
   * proven, every token). False, with nothing changed, when the account is disabled: the update's
   * row lock makes a disabling at the same moment come before it or after it, never between.
   */
  async resetPassword(userId: string, passwordHash: string, manager: EntityManager): Promise<boolean> {
    const updated = await rows<{ was_verified: boolean }>(
      manager,
      `UPDATE users u SET password_hash = $2, email_verified_at = coalesce(u.email_verified_at, now())
       FROM users before WHERE before.id = u.id AND u.id = $1 AND u.disabled_at IS NULL
       RETURNING before.email_verified_at IS NOT NULL AS was_verified`,
      [userId, passwordHash],
    );
    if (!updated[0]) return false;
    await manager.query(`DELETE FROM sessions WHERE user_id = $1`, [userId]);
    if (!updated[0].was_verified) await this.revokeTokens(userId, manager);
    return true;
  }

  private async endEverything(userId: string, manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM sessions WHERE user_id = $1`, [userId]);
    await this.revokeTokens(userId, manager);
  }

  private async revokeTokens(userId: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE api_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
  }
}
