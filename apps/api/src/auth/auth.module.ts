import { Global, Module } from '@nestjs/common';
import { AccountsService } from './accounts.service.js';
import { ApiTokensController } from './api-tokens.controller.js';
import { ApiTokensService } from './api-tokens.service.js';
import { AuthController } from './auth.controller.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';
import { LoginThrottle } from './login-throttle.js';
import { MeController } from './me.controller.js';
import { SessionAuthGuard } from './session-auth.guard.js';
import { SignInOptionsController } from './sign-in-options.controller.js';
import { SessionsService } from './sessions.service.js';
import { UsersRepository } from './users.repository.js';

@Global()
@Module({
  controllers: [AuthController, ApiTokensController, MeController, SignInOptionsController],
  providers: [AccountsService, LoginThrottle, ApiTokensService, SessionsService, UsersRepository, BearerAuthGuard, SessionAuthGuard],
  exports: [ApiTokensService, SessionsService, UsersRepository, BearerAuthGuard, SessionAuthGuard],
})
export class AuthModule {}
