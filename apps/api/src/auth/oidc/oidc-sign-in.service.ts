import { Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { throttleKeyOf } from '../../common/client-address.js';
import { RateLimiter } from '../../rate-limit/rate-limiter.js';
import type { AuthUser } from '../auth-context.js';
import { OidcAccountsService, UnverifiedEmailTakenError } from './oidc-accounts.service.js';
import { OidcClient, type OidcAttempt } from './oidc-client.js';
import { safeReturnPath } from './oidc-transaction.js';

// Each start and each callback costs a request to the provider: a flood from one client stops here.
// Generous enough for a whole office behind one address signing in at nine.
const PER_CLIENT = { capacity: 60, windowSeconds: 60 };

/** What the console's sign-in page says after a failed single sign-on (`/login?error=…`). */
export type OidcFailure = 'sso' | 'sso-unverified' | 'account-disabled';

export type OidcOutcome = { user: AuthUser; next: string } | { failure: OidcFailure; next: string };

/** Single sign-on from the first redirect to the account: the steps, their throttle and their failures. */
@Injectable()
export class OidcSignInService {
  private readonly logger = new Logger('OpenID');

  constructor(
    private readonly client: OidcClient,
    private readonly accounts: OidcAccountsService,
    private readonly limiter: RateLimiter,
  ) {}

  get enabled(): boolean {
    return this.client.enabled;
  }

  /** The provider's sign-in page for a new attempt, or a failure when the provider cannot be reached. */
  async start(
    next: unknown,
    clientAddress: string,
  ): Promise<{ url: string; attempt: OidcAttempt; next: string } | { failure: OidcFailure; next: string }> {
    this.assertEnabled();
    await this.throttle('start', clientAddress);
    const path = safeReturnPath(next);
    try {
      return { ...(await this.client.begin()), next: path };
    } catch (error) {
      this.logger.warn(`cannot start a sign-in: ${describe(error)}`);
      return { failure: 'sso', next: path };
    }
  }

  /**
   * The provider's answer (`query`) checked against the attempt the browser kept; any mismatch,
   * provider error, replayed code or bad nonce is a failure, and nobody is signed in.
   */
  async finish(
    query: string,
    stored: { attempt: OidcAttempt; next: string } | null,
    clientAddress: string,
  ): Promise<OidcOutcome> {
    this.assertEnabled();
    await this.throttle('callback', clientAddress);
    if (!stored) return { failure: 'sso', next: '/files' };
    try {
      const claims = await this.client.finish(query, stored.attempt);
      return { user: await this.accounts.signIn(claims), next: stored.next };
    } catch (error) {
      if (error instanceof UnverifiedEmailTakenError) return { failure: 'sso-unverified', next: stored.next };
      this.logger.warn(`sign-in refused: ${describe(error)}`);
      return { failure: 'sso', next: stored.next };
    }
  }

  private assertEnabled(): void {
    if (!this.client.enabled) throw new AppError(ErrorCode.NOT_FOUND, '本服务未配置单点登录');
  }

  private async throttle(step: string, clientAddress: string): Promise<void> {
    const decision = await this.limiter.consume(
      `oidc:${step}:${throttleKeyOf(clientAddress)}`,
      PER_CLIENT.capacity,
      PER_CLIENT.windowSeconds,
    );
    if (!decision.allowed) {
      throw new AppError(ErrorCode.RATE_LIMITED, '单点登录请求过于频繁，请稍后再试', {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const oauthError = (error as { error?: unknown }).error;
  return [error.message, typeof code === 'string' ? code : null, typeof oauthError === 'string' ? oauthError : null]
    .filter(Boolean)
    .join(' / ');
}
