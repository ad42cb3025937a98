import { Module } from '@nestjs/common';
import { AuthController } from './auth.controller.js';
import { AuthModule } from './auth.module.js';
import { EmailModule } from './email/email.module.js';
import { RegistrationService } from './registration.service.js';

/**
 * The console's registration, password sign-in, sign-out and account routes. Apart from AuthModule
 * because registration asks EmailModule for a code when e-mail is configured, and EmailModule
 * itself builds on AuthModule.
 */
@Module({
  imports: [AuthModule, EmailModule],
  controllers: [AuthController],
  providers: [RegistrationService],
})
export class SignInModule {}
