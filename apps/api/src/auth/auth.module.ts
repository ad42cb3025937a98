import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { AccountsService } from './accounts/accounts.service.js';
import { administratorsProvider } from './accounts/administrators.js';
import { InstanceSettingsRepository } from './accounts/instance-settings.repository.js';
import { RegistrationPolicy } from './accounts/registration-policy.js';
import { ApiTokensController } from './api-tokens.controller.js';
import { ApiTokensRepository } from './tokens/api-tokens.repository.js';
import { ApiTokensService } from './tokens/api-tokens.service.js';
import { BearerAuthGuard } from './tokens/bearer-auth.guard.js';
import { LoginThrottle } from './accounts/login-throttle.js';
import { MeController } from './me.controller.js';
import { PasswordChangeService } from './passwords/password-change.service.js';
import { PasswordController } from './password.controller.js';
import { PasswordSignInService } from './passwords/password-sign-in.service.js';
import { SessionAuthGuard } from './session-auth.guard.js';
import { SessionOrBearerGuard } from './session-or-bearer.guard.js';
import { WorkspaceAccessRepository } from './accounts/workspace-access.repository.js';
import { SignInOptionsController } from './sign-in-options.controller.js';
import { SessionsController } from './sessions.controller.js';
import { SessionsRepository } from './sessions/sessions.repository.js';
import { SessionsService } from './sessions/sessions.service.js';
import { TokenIdentityCache } from './tokens/token-identity-cache.js';
import { TwoFactorThrottle } from './two-factor/two-factor-throttle.js';
import { TwoFactorController } from './two-factor.controller.js';
import { TwoFactorRepository } from './two-factor/two-factor.repository.js';
import { TwoFactorService } from './two-factor/two-factor.service.js';
import { UsersRepository } from './accounts/users.repository.js';
import { AuditModule } from '../audit/audit.module.js';

/**
 * Accounts and how a request proves whose it is: users, console sessions, API tokens, two-factor
 * authentication, and the guards every feature's controllers use; with the routes that need
 * nothing else (tokens, me, sign-in options, two factors, sessions, password). E-mail, single
 * sign-on and the registration and sign-in routes build on it (EmailModule, OidcModule,
 * SignInModule), so it imports none of them.
 */
@Module({
  imports: [RateLimitModule, AuditModule],
  controllers: [
    ApiTokensController,
    MeController,
    SignInOptionsController,
    TwoFactorController,
    SessionsController,
    PasswordController,
  ],
  providers: [
    administratorsProvider,
    InstanceSettingsRepository,
    RegistrationPolicy,
    AccountsService,
    LoginThrottle,
    ApiTokensService,
    ApiTokensRepository,
    TokenIdentityCache,
    SessionsRepository,
    SessionsService,
    UsersRepository,
    BearerAuthGuard,
    SessionAuthGuard,
    SessionOrBearerGuard,
    WorkspaceAccessRepository,
    TwoFactorRepository,
    TwoFactorThrottle,
    TwoFactorService,
    PasswordSignInService,
    PasswordChangeService,
  ],
  exports: [
    administratorsProvider,
    InstanceSettingsRepository,
    RegistrationPolicy,
    AccountsService,
    ApiTokensService,
    TokenIdentityCache,
    SessionsService,
    UsersRepository,
    BearerAuthGuard,
    SessionAuthGuard,
    SessionOrBearerGuard,
    WorkspaceAccessRepository,
    TwoFactorService,
    PasswordSignInService,
    // A guard is instantiated in the module of the controller that names it; the bearer guard
    // needs the limiter there.
    RateLimitModule,
  ],
})
export class AuthModule {}
