import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { AccountsService } from '../accounts/accounts.service.js';
import type { AuthUser } from '../auth-context.js';
import { EmailAccountsRepository, type Proof } from '../email/email-accounts.repository.js';
import { TokenIdentityCache } from '../tokens/token-identity-cache.js';
import { UsersRepository } from '../accounts/users.repository.js';
import type { OidcClaims } from './oidc-client.js';
import { UserIdentitiesRepository } from './user-identities.repository.js';

/** The provider's address belongs to an existing account, but the provider does not vouch for it. */
export class UnverifiedEmailTakenError extends AppError {
  constructor() {
    super(ErrorCode.FORBIDDEN, '该电子邮件已有账号，但身份提供方未证实此地址，无法通过单点登录进入该账号');
  }
}

// Parallel callbacks for one new identity race on the unique keys; the loser looks again.
const ROUNDS = 4;

/** Thrown inside the creating transaction to roll it back when another sign-in won the race. */
class LostRace extends Error {}

/**
 * Which account a provider's person signs in to. First the identity (issuer + subject); else an
 * account with the same address, but only when the provider says the address is verified (then
 * the identity is linked and the address marked proven, and an account whose address was never
 * proven is taken over: see linkByProvenAddress); else a new account without a password. Nothing
 * else about an existing account ever changes here: not its quota, segment or any role, whatever
 * the provider sends.
 */
@Injectable()
export class OidcAccountsService {
  private readonly logger = new Logger('OpenID');

  constructor(
    private readonly db: DataSource,
    private readonly identities: UserIdentitiesRepository,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsService,
    private readonly emailAccounts: EmailAccountsRepository,
    private readonly tokenIdentities: TokenIdentityCache,
  ) {}

  async signIn(claims: OidcClaims): Promise<AuthUser> {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await this.resolve(claims);
      if (user) return user;
    }
    throw new AppError(ErrorCode.CONFLICT, '登录冲突，请重试');
  }

  /** The account, or null when a parallel sign-in changed the picture and it is worth looking again. */
  private async resolve(claims: OidcClaims): Promise<AuthUser | null> {
    const linked = await this.identities.findUser(claims.issuer, claims.subject);
    if (linked) {
      if (claims.emailVerified && !linked.emailVerified && claims.email?.toLowerCase() === linked.email.toLowerCase()) {
        await this.identities.markEmailVerified(linked.id, claims.email);
        // Read again: a proven address can bring administrator rights (Administrators).
        return (await this.users.findById(linked.id)) ?? null;
      }
      return linked;
    }
    if (!claims.email) throw new AppError(ErrorCode.FORBIDDEN, '身份提供方没有提供电子邮件地址');
    const existing = await this.users.findCredentials(claims.email);
    if (existing) {
      if (!claims.emailVerified) throw new UnverifiedEmailTakenError();
      const proof = await this.linkByProvenAddress(claims, existing.id);
      if (!proof) return null;
      this.logger.log(
        proof === 'claimed'
          ? `linked ${claims.issuer} identity to account ${existing.id} by verified e-mail; the address was never proven, so its password, sessions and tokens were ended`
          : `linked ${claims.issuer} identity to account ${existing.id} by verified e-mail`,
      );
      return (await this.users.findById(existing.id)) ?? null;
    }
    return this.create(claims, claims.email);
  }

  /**
   * Links the identity to the account its proven address names, and proves the address, in one
   * transaction. An account whose address was never proven may have been registered by anyone
   * (registration cannot check an address without e-mail), so, as when the mailbox's owner proves
   * it by e-mail code, the provider's person takes it over: its password goes, every session ends
   * and every API token is revoked. Null when a parallel sign-in linked the identity first.
   */
  private async linkByProvenAddress(claims: OidcClaims, userId: string): Promise<Proof | null> {
    try {
      const proof = await this.db.transaction(async (manager) => {
        if (!(await this.identities.link(claims.issuer, claims.subject, userId, claims.email, manager))) throw new LostRace();
        return this.emailAccounts.claim(userId, manager);
      });
      // A claim revokes the account's tokens: refused here from the very next call.
      this.tokenIdentities.forgetUser(userId);
      return proof;
    } catch (error) {
      if (error instanceof LostRace) return null;
      throw error;
    }
  }

  /** A new account and its identity, together or not at all. */
  private async create(claims: OidcClaims, email: string): Promise<AuthUser | null> {
    try {
      return await this.db.transaction(async (manager) => {
        const user = await this.accounts.createAccount(email, {
          passwordHash: null,
          emailVerified: claims.emailVerified,
          manager,
        });
        if (!user) throw new LostRace();
        if (!(await this.identities.link(claims.issuer, claims.subject, user.id, email, manager))) throw new LostRace();
        return user;
      });
    } catch (error) {
      if (error instanceof LostRace) return null;
      throw error;
    }
  }
}
