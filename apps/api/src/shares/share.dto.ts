import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { LIMITS, SLUG_PATTERN, WATERMARK_TEXT_PATTERN } from '@sharedown/contract/limits';
import { FILE_KINDS, type FileKind } from '../files/file-names.js';
import { SHARE_NOTIFY, type ShareNotify } from './share-notify.js';
import { CreatedByDto } from '../common/created-by.dto.js';

export { SLUG_PATTERN };
export const MAX_ALLOWLIST_ENTRIES = LIMITS.emailAllowlist.max;
const {
  expiresInDays: EXPIRY,
  sharePassword: PASSWORD,
  visits: VISITS,
  watermarkText: WATERMARK,
  email: EMAIL,
  agreementText: AGREEMENT,
} = LIMITS;
import { NEXT_CURSOR_DESCRIPTION } from '../common/api-page-queries.decorator.js';
import { NoControlCharacters } from '../common/text/text-rules.js';
import { CURSOR_MESSAGE, LIMIT_MESSAGE } from '../common/page-cursor.js';
/** A share's state as its owner reads it; revoked wins over consumed, which wins over expired. */
export const SHARE_STATUSES = ['active', 'expired', 'consumed', 'revoked'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

/** `null` is allowed and means "not set"; any other non-integer is refused. */
function Cap(field: string): PropertyDecorator {
  const message = `${field} 必须是 ${VISITS.min} 到 ${VISITS.max} 之间的整数或 null`;
  return (target, key) => {
    IsOptional()(target, key);
    IsInt({ message })(target, key);
    Min(VISITS.min, { message })(target, key);
    Max(VISITS.max, { message })(target, key);
  };
}

/** A boolean flag: may be omitted, but `null` or another type is refused. */
function Flag(field: string): PropertyDecorator {
  return (target, key) => {
    ValidateIf((object: Record<string, unknown>) => object[key as string] !== undefined)(target, key);
    IsBoolean({ message: `${field} 必须是布尔值` })(target, key);
  };
}

/** An agreement (an NDA, terms) the visitor must accept before any content of the share. */
export class AgreementInputDto {
  @ApiProperty({
    minLength: AGREEMENT.min,
    maxLength: AGREEMENT.max,
    description: 'Markdown, rendered sanitized like a Markdown document; not only whitespace',
  })
  @IsString({ message: 'agreement.text 必须是字符串' })
  @Length(AGREEMENT.min, AGREEMENT.max, { message: `agreement.text 必须是 ${AGREEMENT.min} 到 ${AGREEMENT.max} 个字符` })
  // Blank text would show the visitor an empty page to accept.
  @Matches(/\S/, { message: 'agreement.text 不能只有空白' })
  text: string;

  @ApiProperty({ required: false, description: 'the visitor also types a name (1..100 characters) to accept' })
  @Flag('agreement.requireName')
  requireName?: boolean;
}

/** A share's agreement as its owner reads it. */
export class AgreementDto {
  @ApiProperty({ description: 'Markdown' }) text: string;
  @ApiProperty() requireName: boolean;
  @ApiProperty({ description: 'SHA-256 (hex) of the text, as each acceptance records it' }) sha256: string;
}

/** Link policies of a share; every field optional (the contract's ShareInput). */
export class ShareInputDto {
  @ApiProperty({
    required: false,
    type: 'integer',
    nullable: true,
    minimum: EXPIRY.min,
    maximum: EXPIRY.max,
    description: 'null = never expires',
  })
  @IsOptional()
  @IsInt({ message: `expiresInDays 必须是 ${EXPIRY.min} 到 ${EXPIRY.max} 之间的整数或 null` })
  @Min(EXPIRY.min, { message: `expiresInDays 必须是 ${EXPIRY.min} 到 ${EXPIRY.max} 之间的整数或 null` })
  @Max(EXPIRY.max, { message: `expiresInDays 必须是 ${EXPIRY.min} 到 ${EXPIRY.max} 之间的整数或 null` })
  expiresInDays?: number | null;

  @ApiProperty({
    required: false,
    type: 'string',
    nullable: true,
    minLength: PASSWORD.min,
    maxLength: PASSWORD.max,
    description: 'null = no password',
  })
  @IsOptional()
  @IsString({ message: 'password 必须是字符串或 null' })
  @Length(PASSWORD.min, PASSWORD.max, { message: `password 长度必须在 ${PASSWORD.min} 到 ${PASSWORD.max} 个字符之间` })
  password?: string | null;

  @ApiProperty({ required: false, type: 'integer', nullable: true, minimum: VISITS.min, maximum: VISITS.max })
  @Cap('maxVisits')
  maxVisits?: number | null;

  @ApiProperty({
    required: false,
    type: 'integer',
    nullable: true,
    minimum: VISITS.min,
    maximum: VISITS.max,
    description: 'null = unlimited per visitor',
  })
  @Cap('perVisitorMaxVisits')
  perVisitorMaxVisits?: number | null;

  @ApiProperty({
    required: false,
    type: 'integer',
    nullable: true,
    minimum: VISITS.min,
    maximum: VISITS.max,
    description: 'implies requireLogin',
  })
  @Cap('perLoginUserMaxVisits')
  perLoginUserMaxVisits?: number | null;

  @ApiProperty({ required: false, description: 'true forces maxVisits = 1' })
  @Flag('oneTime')
  oneTime?: boolean;

  @ApiProperty({ required: false })
  @Flag('requireLogin')
  requireLogin?: boolean;

  @ApiProperty({ required: false })
  @Flag('watermarkEnabled')
  watermarkEnabled?: boolean;

  @ApiProperty({
    required: false,
    type: 'string',
    nullable: true,
    maxLength: WATERMARK.max,
    pattern: WATERMARK_TEXT_PATTERN.source,
    description:
      'the watermark text; the limit counts this template. Placeholders filled in per view: `{email}` the signed-in ' +
      "visitor's proven address, `{name}` the name given on the agreement, `{date}` the UTC date (YYYY-MM-DD), `{ip}` the " +
      'masked IP prefix. A placeholder with nothing to say leaves nothing (never the braces), and the separator beside it ' +
      'goes too. The sandboxed frame of an HTML document shows the same text. null = the default mark (who, and the time)',
  })
  @IsOptional()
  @IsString({ message: 'watermarkText 必须是字符串或 null' })
  @MaxLength(WATERMARK.max, { message: `watermarkText 最长 ${WATERMARK.max} 个字符` })
  @Matches(WATERMARK_TEXT_PATTERN, { message: 'watermarkText 不能包含控制字符' })
  watermarkText?: string | null;

  @ApiProperty({ required: false })
  @Flag('copyProtectionEnabled')
  copyProtectionEnabled?: boolean;

  @ApiProperty({ required: false })
  @Flag('burnAfterReadEnabled')
  burnAfterReadEnabled?: boolean;

  @ApiProperty({ required: false, type: 'string', nullable: true, pattern: SLUG_PATTERN.source })
  @IsOptional()
  @IsString({ message: 'slug 必须是字符串或 null' })
  @Matches(SLUG_PATTERN, { message: 'slug 必须是 3 到 32 位字母、数字、_ 或 -' })
  slug?: string | null;

  @ApiProperty({ required: false, description: 'pins the share to one version of the file' })
  @ValidateIf((object: ShareInputDto) => object.lockedVersionId !== undefined)
  @IsString({ message: 'lockedVersionId 必须是字符串' })
  @MaxLength(64, { message: 'lockedVersionId 不是该文件的版本' })
  lockedVersionId?: string;

  @ApiProperty({ required: false, description: 'only the browser session that opens the link first may access it' })
  @Flag('oneSession')
  oneSession?: boolean;

  @ApiProperty({
    required: false,
    type: 'array',
    items: { type: 'string', format: 'email', maxLength: EMAIL.max },
    maxItems: MAX_ALLOWLIST_ENTRIES,
    description:
      'implies requireLogin. A visitor passes only when signed in to an account whose e-mail is in the list and verified ' +
      '(by an e-mail code or an OpenID provider); an instance with neither SMTP_URL nor OIDC_ISSUER_URL cannot verify ' +
      'addresses, so only accounts verified before are admitted there (GET /api/auth/options: emailCodes false, oidcLabel null)',
  })
  @ValidateIf((object: ShareInputDto) => object.emailAllowlist !== undefined)
  @IsArray({ message: 'emailAllowlist 必须是电子邮件地址数组' })
  @ArrayMaxSize(MAX_ALLOWLIST_ENTRIES, { message: `emailAllowlist 最多 ${MAX_ALLOWLIST_ENTRIES} 个地址` })
  @IsEmail({}, { each: true, message: 'emailAllowlist 中的每一项都必须是有效的电子邮件地址' })
  @MaxLength(EMAIL.max, { each: true, message: `emailAllowlist 中的电子邮件地址最长 ${EMAIL.max} 个字符` })
  emailAllowlist?: string[];

  @ApiProperty({
    required: false,
    enum: SHARE_NOTIFY,
    enumName: 'ShareNotify',
    description:
      'default `off`. Tells the owner about visits: `first` once, on the first visit by a person; `every` on each visit by a person; ' +
      '`daily` in one digest per UTC day of the visits of the day before (none when there were none); `off` never. ' +
      'Visits marked automated, link previews and HEAD requests never notify. Notifications are listed at ' +
      "GET /api/notifications and, with SMTP_URL, e-mailed to the owner's verified address",
  })
  @ValidateIf((object: ShareInputDto) => object.notify !== undefined)
  @IsIn(SHARE_NOTIFY, { message: `notify 必须是 ${SHARE_NOTIFY.join('、')} 之一` })
  notify?: ShareNotify;

  @ApiProperty({
    required: false,
    type: AgreementInputDto,
    nullable: true,
    description:
      'an agreement the visitor must accept (after the password and sign-in steps) before any content of the share; ' +
      'null removes it. An acceptance holds for that visitor until the text changes',
  })
  @IsOptional()
  @IsObject({ message: 'agreement 必须是 { text, requireName? } 对象或 null' })
  @ValidateNested({ message: 'agreement 必须是 { text, requireName? } 对象或 null' })
  @Type(() => AgreementInputDto)
  agreement?: AgreementInputDto | null;
}

export class CreateShareDto extends ShareInputDto {
  @ApiProperty({ required: false, description: 'the file to share; exactly one of fileId and folderId' })
  @IsOptional()
  @IsString({ message: 'fileId 必须是字符串' })
  @Length(1, 64, { message: 'fileId 无效' })
  fileId?: string;

  @ApiProperty({
    required: false,
    description:
      "a folder to share as a collection: one link for the folder's CLEAN documents, sub-folders included; " +
      'exactly one of fileId and folderId, and no lockedVersionId',
  })
  @IsOptional()
  @IsString({ message: 'folderId 必须是字符串' })
  @Length(1, 64, { message: 'folderId 无效' })
  folderId?: string;
}

export class ListSharesQueryDto {
  @ApiProperty({ required: false, description: 'only the shares of this file' })
  @IsOptional()
  @IsString({ message: 'fileId 必须是字符串' })
  fileId?: string;

  @ApiProperty({ required: false, description: 'only the collections of this folder' })
  @IsOptional()
  @IsString({ message: 'folderId 必须是字符串' })
  folderId?: string;

  // Checked, with cursor, by pageRequestOf (documented by ApiPageQueries on the routes).
  @IsOptional()
  @IsString({ message: LIMIT_MESSAGE })
  limit?: string;

  @IsOptional()
  @IsString({ message: CURSOR_MESSAGE })
  cursor?: string;
}

/** The console's list narrows further: by status and by a part of the file name or token. */
export class ConsoleSharesQueryDto extends ListSharesQueryDto {
  @IsOptional()
  @IsIn(SHARE_STATUSES, { message: `status 必须是 ${SHARE_STATUSES.join('、')} 之一` })
  status?: ShareStatus;

  @IsOptional()
  @IsString({ message: 'q 必须是字符串' })
  @MaxLength(200, { message: 'q 最长 200 个字符' })
  @NoControlCharacters('q')
  q?: string;
}

export class ShareDto {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'the last segment of the view link' }) token: string;
  @ApiProperty({ required: false, description: "the owner's public URL segment" }) ownerSegment?: string;
  @ApiProperty({ required: false }) fileId?: string;
  @ApiProperty({ required: false }) fileName?: string;
  @ApiProperty({ required: false, enum: FILE_KINDS }) fileKind?: FileKind;
  @ApiProperty({ required: false, description: 'a collection: the shared folder (then no fileId, fileName or fileKind)' })
  folderId?: string;
  @ApiProperty({ required: false, description: "a collection: the shared folder's name" }) folderName?: string;
  @ApiProperty({ required: false, type: AgreementDto, nullable: true, description: 'absent or null: no agreement' })
  agreement?: AgreementDto | null;
  @ApiProperty() hasPassword: boolean;
  @ApiProperty({ required: false, type: 'string', format: 'date-time', nullable: true }) expiresAt?: string | null;
  @ApiProperty({ required: false, type: 'integer', nullable: true }) maxVisits?: number | null;
  @ApiProperty({ required: false, type: 'integer', nullable: true }) perVisitorMaxVisits?: number | null;
  @ApiProperty({ required: false, type: 'integer', nullable: true }) perLoginUserMaxVisits?: number | null;
  @ApiProperty({ type: 'integer', description: 'successful renders of the main page' }) visitCount: number;
  @ApiProperty({ type: 'integer', description: 'distinct visitors with a successful render' }) uniqueVisitCount: number;
  @ApiProperty() oneTime: boolean;
  @ApiProperty({ required: false }) requireLogin?: boolean;
  @ApiProperty({ required: false }) watermarkEnabled?: boolean;
  @ApiProperty({ required: false, type: 'string', nullable: true, maxLength: WATERMARK.max }) watermarkText?: string | null;
  @ApiProperty({ required: false }) copyProtectionEnabled?: boolean;
  @ApiProperty({ required: false }) burnAfterReadEnabled?: boolean;
  @ApiProperty({
    required: false,
    enum: SHARE_NOTIFY,
    enumName: 'ShareNotify',
    description: 'when the owner is told about visits; absent when `off` (the default)',
  })
  notify?: ShareNotify;
  @ApiProperty({ required: false, type: 'string', format: 'date-time', nullable: true }) revokedAt?: string | null;
  @ApiProperty({ required: false, type: 'string', format: 'date-time', nullable: true }) consumedAt?: string | null;
  @ApiProperty({ required: false, type: 'string', format: 'date-time' }) createdAt?: string;
  @ApiProperty({
    required: false,
    type: 'string',
    format: 'date-time',
    nullable: true,
    description:
      'when an administrator disabled the link after an abuse report (absent otherwise); such a share is also revoked, for good',
  })
  disabledAt?: string | null;
  @ApiProperty({
    required: false,
    type: CreatedByDto,
    description: 'in a shared workspace: the member who made the link (absent in a personal workspace)',
  })
  createdBy?: CreatedByDto;
}

export class CreatedShareDto {
  @ApiProperty({ type: ShareDto }) share: ShareDto;
  @ApiProperty({ format: 'uri', description: 'absolute view URL PUBLIC_URL/s/<ownerSegment>/<token>' }) url: string;
}

export class ShareListDto {
  @ApiProperty({ type: [ShareDto] }) shares: ShareDto[];
  @ApiPropertyOptional({ type: 'string', nullable: true, description: NEXT_CURSOR_DESCRIPTION })
  nextCursor?: string | null;
}

export class ConsoleShareListDto extends ShareListDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'with `limit` or `cursor`: how many shares the filters let through, over all pages',
  })
  total?: number;
}

export class ShareTotalsDto {
  @ApiProperty({ type: 'integer', description: 'shares a visitor could still open: not revoked, consumed or expired' })
  active: number;
  @ApiProperty({ type: 'integer', description: 'visits over every share' }) visits: number;
  @ApiProperty({ type: 'integer', description: 'distinct visitors summed over every share' }) uniqueVisits: number;
}

export class ShareEnvelopeDto {
  @ApiProperty({ type: ShareDto }) share: ShareDto;
}
