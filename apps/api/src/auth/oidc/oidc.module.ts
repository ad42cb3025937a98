import { Module } from '@nestjs/common';
import { RateLimitModule } from '../../rate-limit/rate-limit.module.js';
import { AuthModule } from '../auth.module.js';
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
  providers: [OidcClient, OidcTransactions, OidcAccountsService, OidcSignInService, UserIdentitiesRepository],
})
export class OidcModule {}
