import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { LIMITS } from '@sharedown/contract/limits';
import { AppError } from '../../common/app-error.js';
import { newestFirstCursor, pageOf, type NewestFirstKey, type PageRequest } from '../../common/page-cursor.js';
import type { AuthUser, WorkspaceRole } from '../auth-context.js';
import type { TokenScope } from './token-scope.js';
import { ApiTokensRepository, toTokenView, type ApiTokenView } from './api-tokens.repository.js';
import { equalHex, sha256Hex } from '../secrets.js';
import { TokenIdentityCache } from './token-identity-cache.js';
import { AuditAction } from '../../audit/audit-action.js';
import { AuditLog } from '../../audit/audit-log.js';

export type { ApiTokenView } from './api-tokens.repository.js';

export const TOKEN_SERVICE_PREFIX = 'shd';
export const TOKENS_CURSOR = newestFirstCursor('tokens');
const TOKEN_SCOPE_ORDER: TokenScope[] = ['read', 'write'];
const TOKEN_PATTERN = /^shd_([a-z0-9]{12})_([A-Za-z0-9]{43,64})$/;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Base62 without modulo bias: 43 characters carry 256 bits. */
function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function randomPrefix(): string {
  return randomBytes(9)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .padEnd(12, '0')
    .slice(0, 12);
}

const READ_ONLY: readonly TokenScope[] = ['read'];

export interface TokenIdentity {
  tokenId: string;
  rateLimitPerMinute: number;
  /** What the token may do now: its own scopes, narrowed by its creator's role (a VIEWER reads only). */
  scopes: TokenScope[];
  /** The workspace it acts in. */
  user: AuthUser;
  /** The account it acts as, and its role in the workspace at this call. */
  actor: AuthUser;
  role: WorkspaceRole;
}

// The contract's default bucket for a token created without a rate.
export const DEFAULT_TOKEN_RATE_PER_MINUTE = LIMITS.tokenRate.default;

/** A token to create; what is left out gets the contract's defaults (5 a minute, read and write, no expiry). */
export interface NewToken {
  name: string;
  rateLimitPerMinute?: number;
  scopes?: TokenScope[];
  expiresInDays?: number | null;
}

/** Why a presented token does not authenticate; the guard words its answer after it. */
export type TokenRefusal = 'invalid' | 'expired';

/** API tokens `shd_<prefix>_<secret>`: looked up by prefix, the secret kept as a SHA-256 digest. */
@Injectable()
export class ApiTokensService {
  // lastUsedAt is written at most once a minute per token and process, so the hot path rarely writes.
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly db: DataSource,
    private readonly tokens: ApiTokensRepository,
    private readonly audit: AuditLog,
    private readonly identities: TokenIdentityCache,
  ) {}

  /** One page, newest first (ties by id); `q` matches a part of the name or the prefix. */
  async page(
    userId: string,
    q: string | undefined,
    page: PageRequest<NewestFirstKey>,
  ): Promise<{ tokens: ApiTokenView[]; nextCursor: string | null; total: number }> {
    const [fetched, total] = await Promise.all([this.tokens.page(userId, q, page), this.tokens.count(userId, q)]);
    const found = pageOf(fetched, page.limit, TOKENS_CURSOR, (row) => ({ createdAt: row.cursor_time, id: row.id }));
    return { tokens: found.rows.map(toTokenView), nextCursor: found.nextCursor, total };
  }

  list(userId: string): Promise<ApiTokenView[]> {
    return this.tokens.list(userId);
  }

  /** A token of the workspace `userId`, acting as `createdBy` (the owner itself in a personal workspace). */
  async create(userId: string, input: NewToken, createdBy = userId): Promise<{ token: ApiTokenView; plaintext: string }> {
    // Always stored in the same order, so ["write","read"] and ["read","write"] are one thing.
    const requested = input.scopes ?? TOKEN_SCOPE_ORDER;
    const scopes = TOKEN_SCOPE_ORDER.filter((scope) => requested.includes(scope));
    const rate = input.rateLimitPerMinute ?? DEFAULT_TOKEN_RATE_PER_MINUTE;
    const secret = base62(43);
    for (let attempt = 0; attempt < 5; attempt++) {
      const prefix = randomPrefix();
      const token = await this.db.transaction(async (manager) => {
        const inserted = await this.tokens.insert(
          {
            userId,
            name: input.name,
            prefix,
            secretHash: sha256Hex(secret),
            rateLimitPerMinute: rate,
            scopes,
            expiresInDays: input.expiresInDays ?? null,
            createdBy,
          },
          manager,
        );
        if (inserted) {
          await this.audit.within(manager, {
            userId,
            action: AuditAction.tokenCreated,
            targetId: inserted.id,
            details: { name: inserted.name, prefix: inserted.prefix, scopes: inserted.scopes.join(',') },
          });
        }
        return inserted;
      });
      if (token) return { token, plaintext: `${TOKEN_SERVICE_PREFIX}_${prefix}_${secret}` };
    }
    throw new Error('could not allocate a unique token prefix');
  }

  async revoke(userId: string, tokenId: string): Promise<ApiTokenView> {
    const revoked = await this.db.transaction(async (manager) => {
      const token = await this.tokens.revoke(userId, tokenId, manager);
      if (token)
        await this.audit.within(manager, {
          userId,
          action: AuditAction.tokenRevoked,
          targetId: token.id,
          details: { name: token.name, prefix: token.prefix },
        });
      return token;
    });
    if (!revoked) throw AppError.notFound('令牌不存在');
    // Other processes hear of it from the database; this one must refuse the very next call.
    this.identities.forgetToken(revoked.prefix);
    return revoked;
  }

  /** Resolves a presented plaintext token: its identity, or why it is refused. */
  async authenticate(plaintext: string): Promise<TokenIdentity | TokenRefusal> {
    const match = TOKEN_PATTERN.exec(plaintext);
    if (!match) return 'invalid';
    const [, prefix, secret] = match;
    const found = await this.identities.find(prefix!);
    if (!found || !equalHex(found.secretHash, sha256Hex(secret!))) return 'invalid';
    // Only the holder of the secret learns that it expired.
    if (found.expiresAt !== null && found.expiresAt <= Date.now()) return 'expired';
    await this.touch(found.tokenId);
    // A role narrows what a token may do; it never widens it.
    const scopes = found.role === 'VIEWER' ? READ_ONLY.filter((scope) => found.scopes.includes(scope)) : found.scopes;
    return {
      tokenId: found.tokenId,
      rateLimitPerMinute: found.rateLimitPerMinute,
      scopes,
      user: found.user,
      actor: found.actor,
      role: found.role,
    };
  }

  private async touch(tokenId: string): Promise<void> {
    const now = Date.now();
    if ((this.lastTouched.get(tokenId) ?? 0) > now - 60_000) return;
    if (this.lastTouched.size > 10_000) this.lastTouched.clear();
    this.lastTouched.set(tokenId, now);
    await this.tokens.touchLastUsed(tokenId);
  }
}
