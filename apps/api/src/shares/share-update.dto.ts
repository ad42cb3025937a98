import { ApiProperty, PickType } from '@nestjs/swagger';
import { ShareInputDto } from './share.dto.js';

/**
 * The policies of a live share an owner may change (each field optional: absent = unchanged,
 * null = removed), validated by exactly the rules of creation. The link (token, slug), its file,
 * its pinned version and its one-time nature stay as created.
 */
export class UpdateShareDto extends PickType(ShareInputDto, [
  'expiresInDays',
  'password',
  'maxVisits',
  'perVisitorMaxVisits',
  'perLoginUserMaxVisits',
  'requireLogin',
  'watermarkEnabled',
  'watermarkText',
  'copyProtectionEnabled',
  'burnAfterReadEnabled',
  'oneSession',
  'emailAllowlist',
  'notify',
  'agreement',
] as const) {}

/** Policies of a share that the contract's Share does not show, for the console's edit form. */
export class SharePoliciesDto {
  @ApiProperty() oneSession: boolean;
  @ApiProperty({ type: [String], description: 'empty: no allowlist' }) emailAllowlist: string[];
}
