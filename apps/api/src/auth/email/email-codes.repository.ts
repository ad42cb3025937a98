import { createHmac, randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import { affectedCount, rows } from '../../common/sql.js';
import type { CodePurpose } from '../../mail/mail-messages.js';

export const CODE_TTL_MINUTES = 10;
/** Wrong tries a code survives; the next one, right or wrong, is refused. */
export const MAX_WRONG_ATTEMPTS = 5;

type Executor = Pick<DataSource | EntityManager, 'query'>;

/** Six random digits, zero-padded. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Codes are stored as an HMAC over purpose, address and code, keyed from the session secret: a
 * copy of the table alone cannot be turned back into codes by trying all million of them.
 */
export class EmailCodeHasher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('sharedown:email-code').digest();
  }

  digest(email: string, purpose: CodePurpose, code: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\n${email.trim().toLowerCase()}\n${code}`).digest('hex');
  }
}

/** The outcome of presenting a code: its row when it matched a live code, else why not. */
export type CodeCheck = { ok: true; id: string } | { ok: false };

/** Deletes codes that expired over a day ago (the periodic sweep); answers how many. */
export async function deleteExpiredEmailCodes(db: Executor, batch = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const count = affectedCount(
      await db.query(
        `DELETE FROM email_codes WHERE id IN (SELECT id FROM email_codes WHERE expires_at < now() - interval '1 day' LIMIT $1)`,
        [batch],
      ),
    );
    total += count;
    if (count < batch) return total;
  }
}

/**
 * One-time e-mail codes (email_codes). One live code per address and purpose: issuing replaces
 * the older ones. A code expires after ten minutes, is used once, and dies after five wrong tries.
 */
@Injectable()
export class EmailCodesRepository {
  private readonly hasher: EmailCodeHasher;

  constructor(
    private readonly db: DataSource,
    @Inject(RUNTIME) runtime: Runtime,
  ) {
    this.hasher = new EmailCodeHasher(runtime.sessionSecret);
  }

  /** A fresh code for the address and purpose; every older one of them stops working. */
  async issue(email: string, purpose: CodePurpose): Promise<string> {
    const code = newCode();
    await this.db.transaction(async (manager) => {
      // Two issues for one address at once must not leave two live codes behind.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`email-code:${purpose}:${email.trim().toLowerCase()}`]);
      await manager.query(`DELETE FROM email_codes WHERE lower(email) = lower($1) AND purpose = $2`, [email.trim(), purpose]);
      await manager.query(
        `INSERT INTO email_codes (email, purpose, code_hash, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(mins => $4))`,
        [email.trim(), purpose, this.hasher.digest(email, purpose, code), CODE_TTL_MINUTES],
      );
    });
    return code;
  }

  /**
   * Whether `code` is the live code of the address and purpose, without using it. A wrong code
   * counts against the live one, under its row lock, so even a parallel wave of guesses gets
   * five tries at a code in all; the sixth finds it dead, whatever it says.
   */
  async check(email: string, purpose: CodePurpose, code: string): Promise<CodeCheck> {
    const checked = await rows<{ id: string; matches: boolean }>(
      this.db,
      `UPDATE email_codes SET attempts = attempts + CASE WHEN code_hash = $3 THEN 0 ELSE 1 END
       WHERE id = (
         SELECT id FROM email_codes
         WHERE lower(email) = lower($1) AND purpose = $2 AND used_at IS NULL AND expires_at > now() AND attempts < $4
         ORDER BY created_at DESC LIMIT 1
         FOR UPDATE
       ) AND used_at IS NULL AND attempts < $4
       RETURNING id, code_hash = $3 AS matches`,
      [email.trim(), purpose, this.hasher.digest(email, purpose, code), MAX_WRONG_ATTEMPTS],
    );
    const row = checked[0];
    return row?.matches ? { ok: true, id: row.id } : { ok: false };
  }

  /**
   * Uses a checked code, inside the caller's transaction: true for exactly one of any number of
   * parallel callers, and only while the code is still live.
   */
  async consume(id: string, manager: EntityManager): Promise<boolean> {
    const result = await manager.query(
      `UPDATE email_codes SET used_at = now()
       WHERE id = $1 AND used_at IS NULL AND expires_at > now() AND attempts < $2`,
      [id, MAX_WRONG_ATTEMPTS],
    );
    return affectedCount(result) === 1;
  }
}
