import { Inject, Injectable } from '@nestjs/common';
import { generateSecret, generateURI, verify } from 'otplib';
import { AppError, ErrorCode } from '../../common/app-error.js';
import { RUNTIME, type Runtime } from '../../common/runtime.js';
import type { AuthUser } from '../auth-context.js';
import { isRecoveryShaped, isTotpShaped, newRecoveryCodes, normalizeCode, recoveryCodeDigest } from './recovery-codes.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { TotpSecretBox } from './totp-secret-box.js';
import { TwoFactorRepository, type TwoFactorState } from './two-factor.repository.js';
import { TwoFactorThrottle, type CodeScope } from './two-factor-throttle.js';
import { AuditAction } from '../../audit/audit-action.js';
import { AuditLog } from '../../audit/audit-log.js';
import { maskedIpPrefix } from '../../common/client-address.js';

export const TOTP_ISSUER = 'Sharedown';
// One step either side of now: phones whose clocks are half a minute off still sign in.
const EPOCH_TOLERANCE_SECONDS = 30;

/** Sent with 401s of the sign-in's second step, so a client keeps showing the code field. */
export const TWO_FACTOR_REQUIRED = { twoFactorRequired: true } as const;

export interface TwoFactorSetup {
  secret: string;
  otpauthUrl: string;
}

/**
 * TOTP two-factor authentication with one-time recovery codes: enrolment, checking a code at
 * sign-in or on the account page (throttled, each TOTP step and each recovery code accepted
 * once), renewing the recovery codes, and turning it off.
 */
@Injectable()
export class TwoFactorService {
  private readonly box: TotpSecretBox;

  constructor(
    private readonly repository: TwoFactorRepository,
    private readonly throttle: TwoFactorThrottle,
    private readonly sessions: SessionsService,
    @Inject(RUNTIME) runtime: Runtime,
    private readonly audit: AuditLog,
  ) {
    this.box = new TotpSecretBox(runtime.sessionSecret);
  }

  async status(userId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    const state = await this.repository.state(userId);
    return {
      enabled: state?.enabled ?? false,
      recoveryCodesLeft: state?.enabled ? await this.repository.unusedRecoveryCodes(userId) : 0,
    };
  }

  /** A new pending secret; it takes effect only when `enable` gets a code made from it. */
  async setup(user: AuthUser): Promise<TwoFactorSetup> {
    const secret = generateSecret();
    if (!(await this.repository.storePending(user.id, this.box.seal(secret, user.id)))) {
      throw new AppError(ErrorCode.CONFLICT, '两步验证已开启；如需更换验证器，请先关闭再重新设置');
    }
    return { secret, otpauthUrl: generateURI({ issuer: TOTP_ISSUER, label: user.email, secret }) };
  }

  /**
   * Turns 2FA on when `code` comes from the pending secret; answers the ten recovery codes (shown
   * only here). Every other session of the account ends: whoever else was signed in must now
   * pass the second factor too.
   */
  async enable(
    user: AuthUser,
    code: string,
    currentSessionId: string,
    clientAddress: string,
  ): Promise<{ recoveryCodes: string[] }> {
    const state = await this.repository.state(user.id);
    if (!state || state.enabled) throw new AppError(ErrorCode.CONFLICT, '两步验证已开启');
    if (!state.sealedSecret) throw new AppError(ErrorCode.CONFLICT, '请先开始设置两步验证');
    const giveBack = await this.throttle.take(user.id, clientAddress, 'manage');
    const step = await this.matchingStep(user.id, state, normalizeCode(code));
    if (step === null) throw new AppError(ErrorCode.UNAUTHENTICATED, '验证码错误');
    await giveBack();
    const recoveryCodes = newRecoveryCodes();
    await this.repository.transaction(async (manager) => {
      if (!(await this.repository.enable(manager, user.id, state.sealedSecret!, step))) {
        throw new AppError(ErrorCode.CONFLICT, '两步验证的设置已被另一个请求更改，请重新开始');
      }
      await this.repository.replaceRecoveryCodes(
        manager,
        user.id,
        recoveryCodes.map((c) => recoveryCodeDigest(normalizeCode(c))),
      );
      const ended = await this.sessions.endOthers(user.id, currentSessionId, manager);
      await this.audit.within(manager, {
        userId: user.id,
        action: AuditAction.twoFactorEnabled,
        details: { sessionsEnded: ended },
      });
    });
    return { recoveryCodes };
  }

  /** Turns 2FA off after a right TOTP or recovery code. */
  async disable(user: AuthUser, code: string, clientAddress: string): Promise<void> {
    await this.check(user.id, code, clientAddress, 'manage');
    const disabled = await this.repository.transaction(async (manager) => {
      const done = await this.repository.disable(manager, user.id);
      if (done)
        await this.audit.within(manager, {
          userId: user.id,
          action: AuditAction.twoFactorDisabled,
          ipPrefix: maskedIpPrefix(clientAddress),
        });
      return done;
    });
    if (!disabled) throw new AppError(ErrorCode.CONFLICT, '两步验证已关闭');
  }

  /** A fresh set of recovery codes after a right code; the previous ones stop working. */
  async renewRecoveryCodes(user: AuthUser, code: string, clientAddress: string): Promise<{ recoveryCodes: string[] }> {
    await this.check(user.id, code, clientAddress, 'manage');
    const recoveryCodes = newRecoveryCodes();
    await this.repository.transaction(async (manager) => {
      if (!(await this.repository.lockEnabled(manager, user.id))) throw new AppError(ErrorCode.CONFLICT, '两步验证已关闭');
      await this.repository.replaceRecoveryCodes(
        manager,
        user.id,
        recoveryCodes.map((c) => recoveryCodeDigest(normalizeCode(c))),
      );
      await this.audit.within(manager, {
        userId: user.id,
        action: AuditAction.recoveryCodesRenewed,
        ipPrefix: maskedIpPrefix(clientAddress),
      });
    });
    return { recoveryCodes };
  }

  /**
   * The second step of a password sign-in: a TOTP code (a step not used before) or an unused
   * recovery code, which this consumes. Wrong → 401 carrying `twoFactorRequired`.
   */
  async checkSignIn(userId: string, code: string, clientAddress: string): Promise<void> {
    await this.check(userId, code, clientAddress, 'sign-in');
  }

  private async check(userId: string, code: string, clientAddress: string, scope: CodeScope): Promise<void> {
    const state = await this.repository.state(userId);
    if (!state?.enabled || !state.sealedSecret) {
      if (scope === 'manage') throw new AppError(ErrorCode.CONFLICT, '两步验证未开启');
      throw new AppError(ErrorCode.UNAUTHENTICATED, '验证码错误', { extras: TWO_FACTOR_REQUIRED });
    }
    // The attempt is taken before anything is compared, so a wave of guesses is cut at the limit.
    const giveBack = await this.throttle.take(userId, clientAddress, scope);
    const normalized = normalizeCode(code);
    let accepted = false;
    if (isTotpShaped(normalized)) {
      const step = await this.matchingStep(userId, state, normalized);
      accepted = step !== null && (await this.repository.acceptStep(userId, step));
    } else if (isRecoveryShaped(normalized)) {
      accepted = await this.repository.consumeRecoveryCode(userId, recoveryCodeDigest(normalized));
    }
    if (!accepted) {
      throw new AppError(ErrorCode.UNAUTHENTICATED, '验证码错误或已使用', {
        extras: scope === 'sign-in' ? TWO_FACTOR_REQUIRED : {},
      });
    }
    await giveBack();
  }

  /** The time step `code` belongs to when it is right and later than the last step accepted, else null. */
  private async matchingStep(userId: string, state: TwoFactorState, normalized: string): Promise<number | null> {
    if (!isTotpShaped(normalized) || !state.sealedSecret) return null;
    const secret = this.box.open(state.sealedSecret, userId);
    if (secret === null) throw new AppError(ErrorCode.INTERNAL, '两步验证密钥无法解密（SESSION_SECRET 是否更换过？）');
    const result = await verify({
      secret,
      token: normalized,
      epochTolerance: EPOCH_TOLERANCE_SECONDS,
      ...(state.lastStep !== null ? { afterTimeStep: state.lastStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }
}
