import { Module } from '@nestjs/common';
import { RateLimitModule } from '../../rate-limit/rate-limit.module.js';
import { AuthModule } from '../auth.module.js';
import { EmailAccountsRepository } from '../email/email-accounts.repository.js';
import { OidcAccountsService } from './oidc-accounts.service.js';
import { OidcClient } from './oidc-client.js';
import { OidcSignInService } from './oidc-sign-in.service.js';
import { OidcTransactions } from './oidc-transaction.js';
import { OidcController } from './oidc.controller.js';
import { UserIdentitiesRepository } from './user-identities.repository.js';

/** Single sign-on through an OpenID provider (OIDC_*); its routes answer 404 when it is not configured. */
@Module({
  imports: [AuthModule, RateLimitModule],
  controllers: [OidcController],
  // EmailAccountsRepository holds no state: linking by a proven address takes over an unproven
  // account the same way an e-mail code does, whether or not e-mail is configured.
  providers: [
    OidcClient,
    OidcTransactions,
    OidcAccountsService,
    OidcSignInService,
    UserIdentitiesRepository,
    EmailAccountsRepository,
  ],
})
export class OidcModule {}
