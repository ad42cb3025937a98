import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error.js';
import { AccountsService } from './accounts.service.js';
import type { AuthUser } from './auth-context.js';
import { TWO_FACTOR_REQUIRED, TwoFactorService } from './two-factor.service.js';

/**
 * Sign-in with e-mail and password, and the second factor when the account has one. The code
 * is looked at only after the password was right, so guessing codes needs the password first.
 */
@Injectable()
export class PasswordSignInService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  async signIn(email: string, password: string, code: string | undefined, clientAddress: string): Promise<AuthUser> {
    const user = await this.accounts.login(email, password, clientAddress);
    if (!user.twoFactorEnabled) return user;
    if (!code) throw new AppError(ErrorCode.UNAUTHENTICATED, '请输入两步验证码', { extras: TWO_FACTOR_REQUIRED });
    await this.twoFactor.checkSignIn(user.id, code, clientAddress);
    return user;
  }
}
