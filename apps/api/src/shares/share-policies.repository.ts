import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DataSource } from 'typeorm';
import type { Columns } from '../database/rows.js';
import type { ShareSettings } from './share-input.js';
import type { ShareNotify } from './share-notify.js';

/** A share's current policies, read under its row lock. */
export interface CurrentPolicies {
  revoked: boolean;
  oneTime: boolean;
  maxVisits: number | null;
  perVisitorMaxVisits: number | null;
  perLoginUserMaxVisits: number | null;
  requireLogin: boolean;
  watermarkEnabled: boolean;
  watermarkText: string | null;
  copyProtectionEnabled: boolean;
  burnAfterReadEnabled: boolean;
  oneSession: boolean;
  emailAllowlist: string[] | null;
  notify: ShareNotify;
  agreement: { text: string; requireName: boolean } | null;
}

/** What an edit writes: the settings, and for expiry and password whether they change at all. */
export interface PolicyChange {
  settings: ShareSettings;
  expiry: { days: number | null } | null;
  passwordHash: { hash: string | null } | null;
}

/**
 * Writes an edit under the share's row lock, the same lock visit admission takes, so the next
 * admitted visit (on any replica: nothing of a share's policies is cached in a process) is judged
 * by the new policies. Counts stay; a total cap at or below the current count consumes the link,
 * a cap raised above it opens it again; changing the one-session rule forgets the bound session.
 */
const APPLY_SQL = `
  UPDATE shares SET
    expires_at = CASE WHEN NOT $2::boolean THEN expires_at WHEN $3::int IS NULL THEN NULL ELSE now() + make_interval(days => $3::int) END,
    password_hash = CASE WHEN $4::boolean THEN $5 ELSE password_hash END,
    max_visits = $6, per_visitor_max_visits = $7, per_login_user_max_visits = $8, require_login = $9,
    watermark_enabled = $10, watermark_text = $11, copy_protection_enabled = $12, burn_after_read_enabled = $13,
    session_owner = CASE WHEN one_session IS DISTINCT FROM $14 THEN NULL ELSE session_owner END,
    one_session = $14, email_allowlist = $15, notify = $16,
    agreement_text = $17, agreement_require_name = $18,
    consumed_at = CASE WHEN $6::int IS NOT NULL AND visit_count >= $6::int THEN coalesce(consumed_at, now()) END
  WHERE id = $1`;

@Injectable()
export class SharePoliciesRepository {
  constructor(private readonly db: DataSource) {}

  async lock(manager: EntityManager, shareId: string, userId: string): Promise<CurrentPolicies | null> {
    const rows: Array<Record<string, unknown>> = await manager.query(
      `SELECT revoked_at IS NOT NULL AS revoked, one_time, max_visits, per_visitor_max_visits, per_login_user_max_visits,
              require_login, watermark_enabled, watermark_text, copy_protection_enabled, burn_after_read_enabled, one_session,
              email_allowlist, notify, agreement_text, agreement_require_name
         FROM shares WHERE id = $1 AND user_id = $2 FOR UPDATE`,
      [shareId, userId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      revoked: row.revoked as boolean,
      oneTime: row.one_time as boolean,
      maxVisits: row.max_visits as number | null,
      perVisitorMaxVisits: row.per_visitor_max_visits as number | null,
      perLoginUserMaxVisits: row.per_login_user_max_visits as number | null,
      requireLogin: row.require_login as boolean,
      watermarkEnabled: row.watermark_enabled as boolean,
      watermarkText: row.watermark_text as string | null,
      copyProtectionEnabled: row.copy_protection_enabled as boolean,
      burnAfterReadEnabled: row.burn_after_read_enabled as boolean,
      oneSession: row.one_session as boolean,
      emailAllowlist: row.email_allowlist as string[] | null,
      notify: row.notify as ShareNotify,
      agreement:
        row.agreement_text === null
          ? null
          : { text: row.agreement_text as string, requireName: row.agreement_require_name as boolean },
    };
  }

  async apply(manager: EntityManager, shareId: string, change: PolicyChange): Promise<void> {
    const { settings } = change;
    await manager.query(APPLY_SQL, [
      shareId,
      change.expiry !== null,
      change.expiry?.days ?? null,
      change.passwordHash !== null,
      change.passwordHash?.hash ?? null,
      settings.maxVisits,
      settings.perVisitorMaxVisits,
      settings.perLoginUserMaxVisits,
      settings.requireLogin,
      settings.watermarkEnabled,
      settings.watermarkText,
      settings.copyProtectionEnabled,
      settings.burnAfterReadEnabled,
      settings.oneSession,
      settings.emailAllowlist,
      settings.notify,
      settings.agreement?.text ?? null,
      settings.agreement?.requireName ?? false,
    ]);
  }

  async record(manager: EntityManager, shareId: string, userId: string, changes: Record<string, unknown>): Promise<void> {
    await manager.query('INSERT INTO share_policy_changes (share_id, user_id, changes) VALUES ($1, $2, $3::jsonb)', [
      shareId,
      userId,
      JSON.stringify(changes),
    ]);
  }

  async extras(shareId: string, userId: string): Promise<{ oneSession: boolean; emailAllowlist: string[] } | null> {
    const rows: Array<Columns<'shares', 'one_session' | 'email_allowlist'>> = await this.db.query(
      'SELECT one_session, email_allowlist FROM shares WHERE id = $1 AND user_id = $2',
      [shareId, userId],
    );
    return rows[0] ? { oneSession: rows[0].one_session, emailAllowlist: rows[0].email_allowlist ?? [] } : null;
  }
}
