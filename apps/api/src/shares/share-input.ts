import { AppError } from '../common/app-error.js';
import { assertJsonDepth } from '../common/json-depth.js';
import { validationPipe } from '../common/validation-pipe.js';
import type { ShareNotify } from './share-notify.js';
import { ShareInputDto } from './share.dto.js';

/** What a ShareInput means once its implications are applied; the columns of a new `shares` row. */
export interface ShareSettings {
  expiresInDays: number | null;
  password: string | null;
  maxVisits: number | null;
  perVisitorMaxVisits: number | null;
  perLoginUserMaxVisits: number | null;
  oneTime: boolean;
  requireLogin: boolean;
  watermarkEnabled: boolean;
  watermarkText: string | null;
  copyProtectionEnabled: boolean;
  burnAfterReadEnabled: boolean;
  slug: string | null;
  lockedVersionId: string | null;
  oneSession: boolean;
  emailAllowlist: string[] | null;
  notify: ShareNotify;
  /** The agreement a visitor accepts before any content; null: none. */
  agreement: { text: string; requireName: boolean } | null;
}

/** Applies the contract's implications: oneTime forces maxVisits 1; per-login caps and allowlists imply login. */
export function settingsOf(input: ShareInputDto): ShareSettings {
  const oneTime = input.oneTime === true;
  const allowlist = input.emailAllowlist?.length
    ? [...new Set(input.emailAllowlist.map((email) => email.trim().toLowerCase()))]
    : null;
  const perLoginUserMaxVisits = input.perLoginUserMaxVisits ?? null;
  const watermarkText = input.watermarkText?.trim() ? input.watermarkText.trim() : null;
  return {
    expiresInDays: input.expiresInDays ?? null,
    password: input.password ?? null,
    maxVisits: oneTime ? 1 : (input.maxVisits ?? null),
    perVisitorMaxVisits: input.perVisitorMaxVisits ?? null,
    perLoginUserMaxVisits,
    oneTime,
    requireLogin: input.requireLogin === true || perLoginUserMaxVisits !== null || allowlist !== null,
    watermarkEnabled: input.watermarkEnabled === true,
    watermarkText,
    copyProtectionEnabled: input.copyProtectionEnabled === true,
    burnAfterReadEnabled: input.burnAfterReadEnabled === true,
    slug: input.slug ?? null,
    lockedVersionId: input.lockedVersionId ?? null,
    oneSession: input.oneSession === true,
    emailAllowlist: allowlist,
    notify: input.notify ?? 'off',
    agreement: input.agreement ? { text: input.agreement.text, requireName: input.agreement.requireName === true } : null,
  };
}

/**
 * The `share` field of a multipart upload: a JSON-encoded ShareInput, validated by the same
 * rules as `POST /shares` so both paths refuse exactly the same input.
 */
export async function parseShareField(raw: string): Promise<ShareSettings> {
  // Same depth limit as JSON bodies: validation must never recurse through thousands of levels.
  assertJsonDepth(raw, 'share 字段');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw AppError.validation('share 字段必须是 JSON 编码的 ShareInput 对象', 'share');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw AppError.validation('share 字段必须是 JSON 编码的 ShareInput 对象', 'share');
  }
  try {
    await validationPipe.transform(parsed, { type: 'body', metatype: ShareInputDto });
  } catch (error) {
    if (error instanceof AppError) {
      const field = error.extras.field;
      throw AppError.validation(`share：${error.message}`, field === undefined ? 'share' : `share.${field}`);
    }
    throw error;
  }
  return settingsOf(parsed as ShareInputDto);
}
