import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import type { AuthUser } from '../auth-context.js';
import { LoginThrottle } from '../accounts/login-throttle.js';
import { hashPassword, verifyPassword } from '../accounts/password-hasher.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { AuditAction } from '../../audit/audit-action.js';
import { AuditLog } from '../../audit/audit-log.js';

/**
 * Changing the password (the current one first, throttled like sign-in) or setting a first one
 * on an account made by an e-mail code or single sign-on. Every other session ends with it.
 */
@Injectable()
export class PasswordChangeService {
  constructor(
    private readonly db: DataSource,
    private readonly users: UsersRepository,
    private readonly throttle: LoginThrottle,
    private readonly sessions: SessionsService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly audit: AuditLog,
  ) {}

  async change(
    user: AuthUser,
    currentSessionId: string,
    currentPassword: string | undefined,
    newPassword: string,
    clientAddress: string,
  ) {
    if (!this.runtime.env.PASSWORD_LOGIN) throw new AppError(ErrorCode.FORBIDDEN, '本服务未开放密码登录');
    const found = await this.users.findCredentials(user.email);
    if (!found || found.id !== user.id) throw new AppError(ErrorCode.UNAUTHENTICATED, '未登录或会话已过期');
    const previousHash = found.passwordHash;
    if (previousHash !== null) {
      if (!currentPassword) throw AppError.validation('currentPassword 不能为空：修改密码需要当前密码', 'currentPassword');
      const giveBack = await this.throttle.take(user.email, clientAddress);
      if (!(await verifyPassword(previousHash, currentPassword))) throw new AppError(ErrorCode.UNAUTHENTICATED, '当前密码错误');
      await giveBack();
    }
    const nextHash = await hashPassword(newPassword);
    await this.db.transaction(async (manager) => {
      // Only over the password that was checked: of two changes at once, the second finds it gone.
      if (!(await this.users.replacePasswordHash(manager, user.id, previousHash, nextHash)))
        throw new AppError(ErrorCode.CONFLICT, '密码已被另一个请求更改，请重新输入');
      const ended = await this.sessions.endOthers(user.id, currentSessionId, manager);
      await this.audit.within(manager, {
        userId: user.id,
        action: AuditAction.passwordChanged,
        details: { sessionsEnded: ended },
      });
    });
    return (await this.users.findById(user.id))!;
  }
}
