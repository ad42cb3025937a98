import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import type { CodePurpose } from '../../mail/mail-messages.js';
import { MailQueue } from '../../mail/mail-queue.js';
import type { AuthUser } from '../auth-context.js';
import { TWO_FACTOR_REQUIRED, TwoFactorService } from '../two-factor/two-factor.service.js';
import { EmailCodeThrottle } from './email-code-throttle.js';
import { EmailCodesRepository } from './email-codes.repository.js';

/** A code that matched and is not used yet; `giveBack` returns its throttle tokens once it is. */
export interface CheckedCode {
  id: string;
  giveBack: () => Promise<void>;
}

/**
 * The steps every e-mail code flow shares: sending (throttled, queued, the same whatever the
 * address), checking (throttled before anything is compared), the second factor of an account
 * that has one, and using the code together with what it was for, in one transaction.
 */
@Injectable()
export class EmailCodesService {
  constructor(
    private readonly db: DataSource,
    private readonly codes: EmailCodesRepository,
    private readonly throttle: EmailCodeThrottle,
    private readonly mail: MailQueue,
    private readonly twoFactor: TwoFactorService,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  get enabled(): boolean {
    return this.mail.enabled;
  }

  /** Without SMTP_URL the e-mail routes do not exist. */
  assertEnabled(): void {
    if (!this.enabled) throw AppError.notFound('本服务未配置电子邮件');
  }

  /** Queues a code for the address; whether one is really sent is decided by the worker. */
  async send(email: string, purpose: CodePurpose, clientAddress: string): Promise<void> {
    this.assertEnabled();
    await this.throttle.takeSend(email, clientAddress);
    await this.mail.enqueue({ kind: 'code', purpose, email: email.trim() });
  }

  /** Takes the send allowance alone, for registration, where the mail depends on what it finds. */
  async takeSend(email: string, clientAddress: string): Promise<void> {
    await this.throttle.takeSend(email, clientAddress);
  }

  /** Queues a mail whose send allowance was already taken. */
  async enqueue(job: Parameters<MailQueue['enqueue']>[0]): Promise<void> {
    await this.mail.enqueue(job);
  }

  async check(email: string, purpose: CodePurpose, code: string, clientAddress: string): Promise<CheckedCode> {
    this.assertEnabled();
    const giveBack = await this.throttle.takeVerify(email, clientAddress);
    const checked = await this.codes.check(email, purpose, code);
    if (!checked.ok) throw new AppError(ErrorCode.UNAUTHENTICATED, '验证码错误或已失效');
    return { id: checked.id, giveBack };
  }

  /**
   * An account with two-factor authentication needs its second code too: a mailbox alone does not
   * sign in to it. Asked for after the e-mail code was right, so the answer tells nothing to
   * anyone without that code; the e-mail code stays unused meanwhile.
   */
  async secondFactor(user: AuthUser, twoFactorCode: string | undefined, clientAddress: string): Promise<void> {
    if (!user.twoFactorEnabled) return;
    if (!twoFactorCode) throw new AppError(ErrorCode.UNAUTHENTICATED, '请输入两步验证码', { extras: TWO_FACTOR_REQUIRED });
    await this.twoFactor.checkSignIn(user.id, twoFactorCode, clientAddress);
  }

  /**
   * Uses the code and does `work` in one transaction: of parallel requests with one code exactly
   * one gets here, the others answer 409, and a failure of `work` leaves the code unused.
   */
  async redeem<T>(checked: CheckedCode, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(async (manager) => {
      if (!(await this.codes.consume(checked.id, manager))) throw new AppError(ErrorCode.CONFLICT, '验证码已被使用，请重新获取');
      return work(manager);
    });
    await checked.giveBack();
    return result;
  }
}
