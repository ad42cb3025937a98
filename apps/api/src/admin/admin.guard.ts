import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from '../auth/auth-context.js';
import { SessionAuthGuard } from '../auth/session-auth.guard.js';
import { AppError, ErrorCode } from '../common/app-error.js';

/**
 * Administrator routes (`/api/admin/*`): a console session, exactly as SessionAuthGuard asks
 * (a bearer token gets its 403, no session its 401), of an administrator (else 403). A module
 * whose controller names it imports AuthModule, which provides SessionAuthGuard.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly session: SessionAuthGuard) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.session.canActivate(context);
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!request.auth?.user.isAdmin) throw new AppError(ErrorCode.FORBIDDEN, '仅管理员可以访问');
    return true;
  }
}
