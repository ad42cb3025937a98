import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { hashPassword } from '../auth/accounts/password-hasher.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { settingsOf } from './share-input.js';
import { SharePoliciesRepository, type CurrentPolicies } from './share-policies.repository.js';
import type { SharePoliciesDto, UpdateShareDto } from './share-update.dto.js';
import type { ShareDto, ShareInputDto } from './share.dto.js';
import { SharesService } from './shares.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The current policies as a ShareInput, so an edit goes through the same implications as creation. */
function asInput(current: CurrentPolicies): ShareInputDto {
  return {
    oneTime: current.oneTime,
    maxVisits: current.maxVisits,
    perVisitorMaxVisits: current.perVisitorMaxVisits,
    perLoginUserMaxVisits: current.perLoginUserMaxVisits,
    requireLogin: current.requireLogin,
    watermarkEnabled: current.watermarkEnabled,
    watermarkText: current.watermarkText,
    copyProtectionEnabled: current.copyProtectionEnabled,
    burnAfterReadEnabled: current.burnAfterReadEnabled,
    oneSession: current.oneSession,
    emailAllowlist: current.emailAllowlist ?? [],
    notify: current.notify,
    agreement: current.agreement,
  };
}

function agreementChange(agreement: UpdateShareDto['agreement']): unknown {
  if (!agreement) return null;
  return {
    sha256: createHash('sha256').update(agreement.text, 'utf8').digest('hex'),
    requireName: agreement.requireName === true,
  };
}

/** Changes the policies of a live share without changing its link. */
@Injectable()
export class ShareEditorService {
  constructor(
    private readonly db: DataSource,
    private readonly repository: SharePoliciesRepository,
    private readonly shares: SharesService,
  ) {}

  async policies(userId: string, shareId: string): Promise<SharePoliciesDto> {
    const extras = UUID.test(shareId) ? await this.repository.extras(shareId, userId) : null;
    if (!extras) throw AppError.notFound('分享不存在');
    return extras;
  }

  async update(userId: string, shareId: string, patch: UpdateShareDto): Promise<ShareDto> {
    if (!UUID.test(shareId)) throw AppError.notFound('分享不存在');
    const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as UpdateShareDto;
    if (Object.keys(given).length === 0) throw AppError.validation('没有要修改的设置');
    // Hashing is slow on purpose; it happens before the share's row is locked.
    const passwordHash =
      given.password === undefined ? null : { hash: given.password === null ? null : await hashPassword(given.password) };
    await this.db.transaction(async (manager) => {
      const current = await this.repository.lock(manager, shareId, userId);
      if (!current) throw AppError.notFound('分享不存在');
      if (current.revoked) throw new AppError(ErrorCode.CONFLICT, '分享已撤销，不能再修改');
      const settings = settingsOf({ ...asInput(current), ...given, password: null });
      await this.repository.apply(manager, shareId, {
        settings,
        expiry: given.expiresInDays === undefined ? null : { days: given.expiresInDays },
        passwordHash,
      });
      const changes: Record<string, unknown> = { ...given };
      if (given.password !== undefined) changes.password = given.password === null ? 'removed' : 'set';
      // The history names the text it changed to by its digest, as acceptances do.
      if (given.agreement !== undefined) changes.agreement = agreementChange(given.agreement);
      await this.repository.record(manager, shareId, userId, changes);
    });
    return this.shares.get(userId, shareId);
  }
}
