import { Inject, Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import type { AuthUser } from '../auth-context.js';
import { LoginThrottle } from './login-throttle.js';
import { RegistrationPolicy } from './registration-policy.js';
import { hashPassword, verifyPassword } from './password-hasher.js';
import { UsersRepository } from './users.repository.js';

export const EMAIL_UNVERIFIED_MESSAGE =
  '该电子邮件地址尚未验证，暂不能用密码登录：请输入注册时发到该地址的验证码，或通过“忘记密码”重设密码来验证地址';

// A valid argon2id hash of a random password: verifying against it costs the same as a real one.
const DUMMY_HASH = hashPassword(`dummy-${Date.now()}-${Math.random()}`);

export function segmentFromEmail(email: string): string {
  const local = email
    .split('@')[0]!
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  const base = local.slice(0, 24);
  return base.length >= 3 ? base : `${base || 'user'}${randomInt(100, 1000)}`.slice(0, 24);
}

@Injectable()
export class AccountsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly throttle: LoginThrottle,
    private readonly registration: RegistrationPolicy,
    private readonly db: DataSource,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  /**
   * A password registration, as the registration mode allows it: open, or invite-only with an
   * invitation, which is used in the transaction that makes the account (an account that cannot
   * be made leaves it unused). An `invite` in open mode is not looked at.
   */
  async register(email: string, password: string, invite?: string): Promise<AuthUser> {
    this.assertPasswordLogin();
    const mode = await this.registration.assertMayRegister(invite);
    // With an invitation, the invitation is judged first: one meant for another address says nothing about this one.
    if (mode !== 'invite' && (await this.users.emailExists(email))) throw new AppError(ErrorCode.CONFLICT, '该电子邮件已注册');
    const passwordHash = await hashPassword(password);
    const user = await this.db.transaction(async (manager) => {
      const used = mode === 'invite' ? await this.registration.useInvite(manager, invite!, email) : null;
      const created = await this.createAccount(email, { passwordHash, emailVerified: false, manager });
      if (!created) throw new AppError(ErrorCode.CONFLICT, '该电子邮件已注册');
      if (used) await this.registration.recordInviteUse(manager, used.id, created.id);
      return created;
    });
    return user;
  }

  /**
   * A new account with the default quota and a free owner segment made from the address; null
   * when the address already has an account. Every way of creating accounts goes through here.
   */
  async createAccount(
    email: string,
    options: { passwordHash: string | null; emailVerified: boolean; manager?: EntityManager },
  ): Promise<AuthUser | null> {
    const base = segmentFromEmail(email);
    for (let attempt = 0; attempt < 20; attempt++) {
      const segment = attempt === 0 ? base : `${base.slice(0, 24)}-${randomInt(1000, 100000)}`;
      if (await this.users.segmentTaken(segment)) continue;
      const user = await this.users.insert(email, segment, options.passwordHash, this.runtime.env.DEFAULT_QUOTA_BYTES, options);
      if (user) return user;
      if (await this.users.emailExists(email)) return null;
    }
    throw new AppError(ErrorCode.CONFLICT, '无法分配用户标识，请重试');
  }

  /** PASSWORD_LOGIN=false: the password forms are gone, and so is every way to use one. */
  assertPasswordLogin(): void {
    if (!this.runtime.env.PASSWORD_LOGIN) throw new AppError(ErrorCode.FORBIDDEN, '本服务未开放密码登录');
  }

  async login(email: string, password: string, clientAddress: string): Promise<AuthUser> {
    this.assertPasswordLogin();
    const giveBack = await this.throttle.take(email, clientAddress);
    const found = await this.users.findCredentials(email);
    const valid = await verifyPassword(found?.passwordHash ?? (await DUMMY_HASH), password);
    if (!found || !valid) throw new AppError(ErrorCode.UNAUTHENTICATED, '电子邮件或密码错误');
    await giveBack();
    const { passwordHash: _omit, ...user } = found;
    return user;
  }

  /**
   * With e-mail configured, a password opens only an account whose address was proven: anyone can
   * register any address, and until the mailbox has answered, whoever chose the password may not be
   * its owner. Without e-mail nothing can be proven, and the password opens the account as it
   * always did. Asked once the password (and second factor) was right, so only its holder learns it.
   */
  assertPasswordMayOpen(user: AuthUser): void {
    if (this.runtime.env.SMTP_URL && !user.emailVerified) {
      throw new AppError(ErrorCode.FORBIDDEN, EMAIL_UNVERIFIED_MESSAGE, { extras: { emailUnverified: true } });
    }
  }

  async changeSegment(userId: string, segment: string): Promise<AuthUser> {
    if (!(await this.users.updateSegment(userId, segment))) throw new AppError(ErrorCode.CONFLICT, '该用户标识已被占用');
    return (await this.users.findById(userId))!;
  }
}
