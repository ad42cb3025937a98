import { Module } from '@nestjs/common';
import { OidcAccountsService } from './oidc-accounts.service.js';
import { OidcClient } from './oidc-client.js';
import { OidcSignInService } from './oidc-sign-in.service.js';
import { OidcTransactions } from './oidc-transaction.js';
import { OidcController } from './oidc.controller.js';
import { UserIdentitiesRepository } from './user-identities.repository.js';

/** Single sign-on through an OpenID provider (OIDC_*); its routes answer 404 when it is not configured. */
@Module({
  controllers: [OidcController],
  providers: [OidcClient, OidcTransactions, OidcAccountsService, OidcSignInService, UserIdentitiesRepository],
})
export class OidcModule {}
