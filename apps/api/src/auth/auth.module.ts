import { Global, Module } from '@nestjs/common';
import { AccountsService } from './accounts.service.js';
import { ApiTokensController } from './api-tokens.controller.js';
import { ApiTokensService } from './api-tokens.service.js';
import { AuthController } from './auth.controller.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';
import { LoginThrottle } from './login-throttle.js';
import { MeController } from './me.controller.js';
import { PasswordChangeService } from './password-change.service.js';
import { PasswordController } from './password.controller.js';
import { PasswordSignInService } from './password-sign-in.service.js';
import { SessionAuthGuard } from './session-auth.guard.js';
import { SignInOptionsController } from './sign-in-options.controller.js';
import { SessionsController } from './sessions.controller.js';
import { SessionsService } from './sessions.service.js';
import { TwoFactorThrottle } from './two-factor-throttle.js';
import { TwoFactorController } from './two-factor.controller.js';
import { TwoFactorRepository } from './two-factor.repository.js';
import { TwoFactorService } from './two-factor.service.js';
import { UsersRepository } from './users.repository.js';

@Global()
@Module({
  controllers: [
    AuthController,
    ApiTokensController,
    MeController,
    SignInOptionsController,
    TwoFactorController,
    SessionsController,
    PasswordController,
  ],
  providers: [
    AccountsService,
    LoginThrottle,
    ApiTokensService,
    SessionsService,
    UsersRepository,
    BearerAuthGuard,
    SessionAuthGuard,
    TwoFactorRepository,
    TwoFactorThrottle,
    TwoFactorService,
    PasswordSignInService,
    PasswordChangeService,
  ],
  exports: [ApiTokensService, SessionsService, UsersRepository, BearerAuthGuard, SessionAuthGuard, TwoFactorService],
})
export class AuthModule {}
