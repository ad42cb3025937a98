import { ApiProperty } from '@nestjs/swagger';
import { LIMITS } from '@sharedown/contract/limits';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { NEXT_CURSOR_DESCRIPTION } from '../common/api-page-queries.decorator.js';
import { NoControlCharacters } from '../common/text/text-rules.js';
import { SHARE_NOTIFY, type ShareNotify } from '../shares/share-notify.js';

export const REQUEST_STATES = ['OPEN', 'CLOSED', 'EXPIRED', 'FULL'] as const;
export type RequestState = (typeof REQUEST_STATES)[number];
export const UPLOAD_REVIEWS = ['PENDING', 'ACCEPTED', 'REJECTED'] as const;
export type UploadReview = (typeof UPLOAD_REVIEWS)[number];

/** The limits of a document request, beside the service's own (LIMITS). */
export const REQUEST_LIMITS = {
  title: { min: 1, max: 200 },
  instructions: { max: 5000 },
  maxUploads: { min: 1, max: 1000, default: 10 },
  uploaderName: { min: 1, max: 100 },
  message: { max: 2000 },
} as const;

const EXPIRY = LIMITS.expiresInDays;
const PASSWORD = LIMITS.sharePassword;
const EMAIL = LIMITS.email;
const { title: TITLE, instructions: INSTRUCTIONS, maxUploads: MAX_UPLOADS } = REQUEST_LIMITS;

/** What a request's settings may say; every field of an update is optional, as here. */
class RequestSettingsDto {
  @ApiProperty({ required: false, maxLength: INSTRUCTIONS.max, description: 'Markdown, shown sanitized on the public page' })
  @IsOptional()
  @IsString({ message: 'instructions 必须是字符串' })
  @MaxLength(INSTRUCTIONS.max, { message: `instructions 最长 ${INSTRUCTIONS.max} 个字符` })
  instructions?: string;

  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: MAX_UPLOADS.min,
    maximum: MAX_UPLOADS.max,
    description: `uploads the request accepts in all (default ${MAX_UPLOADS.default}; a quarantined upload gives its slot back)`,
  })
  @IsOptional()
  @IsInt({ message: `maxUploads 必须是 ${MAX_UPLOADS.min} 到 ${MAX_UPLOADS.max} 之间的整数` })
  @Min(MAX_UPLOADS.min, { message: `maxUploads 必须是 ${MAX_UPLOADS.min} 到 ${MAX_UPLOADS.max} 之间的整数` })
  @Max(MAX_UPLOADS.max, { message: `maxUploads 必须是 ${MAX_UPLOADS.min} 到 ${MAX_UPLOADS.max} 之间的整数` })
  maxUploads?: number;

  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 1,
    maximum: LIMITS.uploadBytes,
    description: `bytes of one upload; at most (and by default) the file limit, ${LIMITS.uploadBytes}`,
  })
  @IsOptional()
  @IsInt({ message: `maxBytes 必须是 1 到 ${LIMITS.uploadBytes} 之间的整数` })
  @Min(1, { message: `maxBytes 必须是 1 到 ${LIMITS.uploadBytes} 之间的整数` })
  @Max(LIMITS.uploadBytes, { message: `maxBytes 必须是 1 到 ${LIMITS.uploadBytes} 之间的整数` })
  maxBytes?: number;

  @ApiProperty({
    required: false,
    type: 'integer',
    nullable: true,
    minimum: EXPIRY.min,
    maximum: EXPIRY.max,
    description: 'days from now (from the change, on an update); null = never expires',
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
    description: 'asked before the form is shown; null = no password',
  })
  @IsOptional()
  @IsString({ message: 'password 必须是字符串或 null' })
  @Length(PASSWORD.min, PASSWORD.max, { message: `password 长度必须在 ${PASSWORD.min} 到 ${PASSWORD.max} 个字符之间` })
  password?: string | null;

  @ApiProperty({
    required: false,
    nullable: true,
    type: 'array',
    items: { type: 'string', format: 'email', maxLength: EMAIL.max },
    maxItems: LIMITS.emailAllowlist.max,
    description:
      'only uploaders signed in with a proven address of the list (an e-mail code, as on share links) may upload; null or [] = anyone with the link',
  })
  @ValidateIf((object: RequestSettingsDto) => object.emailAllowlist !== undefined && object.emailAllowlist !== null)
  @IsArray({ message: 'emailAllowlist 必须是电子邮件地址数组' })
  @ArrayMaxSize(LIMITS.emailAllowlist.max, { message: `emailAllowlist 最多 ${LIMITS.emailAllowlist.max} 个地址` })
  @IsEmail({}, { each: true, message: 'emailAllowlist 中的每一项都必须是有效的电子邮件地址' })
  @MaxLength(EMAIL.max, { each: true, message: `emailAllowlist 中的电子邮件地址最长 ${EMAIL.max} 个字符` })
  emailAllowlist?: string[] | null;

  @ApiProperty({
    required: false,
    enum: SHARE_NOTIFY,
    description: 'when the owner hears of an upload, in the console and by mail (as a link notifies of visits); default every',
  })
  @IsOptional()
  @IsIn(SHARE_NOTIFY, { message: `notify 必须是 ${SHARE_NOTIFY.join('、')} 之一` })
  notify?: ShareNotify;
}

export class CreateRequestDto extends RequestSettingsDto {
  @ApiProperty({ minLength: TITLE.min, maxLength: TITLE.max, example: 'Signed policies for the 2026 audit' })
  @IsString({ message: 'title 必须是字符串' })
  @Length(TITLE.min, TITLE.max, { message: `title 长度必须在 ${TITLE.min} 到 ${TITLE.max} 个字符之间` })
  @NoControlCharacters('title')
  title: string;

  @ApiProperty({
    required: false,
    format: 'uuid',
    description:
      'where uploads land; without it, a folder named after the title inside a root folder `Requests` (made on demand)',
  })
  @IsOptional()
  @IsUUID('all', { message: 'folderId 必须是 UUID' })
  folderId?: string;
}

export class UpdateRequestDto extends RequestSettingsDto {
  @ApiProperty({ required: false, minLength: TITLE.min, maxLength: TITLE.max })
  @IsOptional()
  @IsString({ message: 'title 必须是字符串' })
  @Length(TITLE.min, TITLE.max, { message: `title 长度必须在 ${TITLE.min} 到 ${TITLE.max} 个字符之间` })
  @NoControlCharacters('title')
  title?: string;
}

export class RequestDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'Markdown' }) instructions: string;
  @ApiProperty({ format: 'uuid' }) folderId: string;
  @ApiProperty({ type: 'integer' }) maxUploads: number;
  @ApiProperty({ type: 'integer', description: 'bytes of one upload' }) maxBytes: number;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) expiresAt: string | null;
  @ApiProperty() hasPassword: boolean;
  @ApiProperty({ type: 'array', items: { type: 'string' }, nullable: true }) emailAllowlist: string[] | null;
  @ApiProperty({ enum: REQUEST_STATES, enumName: 'RequestState' }) state: RequestState;
  @ApiProperty({ type: 'integer', description: 'slots taken: uploads kept (a quarantined one gives its slot back)' })
  uploadCount: number;
  @ApiProperty({ description: 'the public page uploaders open' }) url: string;
  @ApiProperty({ enum: SHARE_NOTIFY }) notify: ShareNotify;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) closedAt: string | null;
}

export class CreatedRequestDto {
  @ApiProperty({ type: RequestDto }) request: RequestDto;
  @ApiProperty() url: string;
}

export class RequestResponseDto {
  @ApiProperty({ type: RequestDto }) request: RequestDto;
}

export class RequestListDto {
  @ApiProperty({ type: [RequestDto] }) requests: RequestDto[];
  @ApiProperty({ type: 'string', nullable: true, description: NEXT_CURSOR_DESCRIPTION }) nextCursor: string | null;
}

export class RequestUploadDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'null once the file was purged' })
  fileId: string | null;
  @ApiProperty() fileName: string;
  @ApiProperty({ type: 'integer' }) sizeBytes: number;
  @ApiProperty({ enum: ['PENDING', 'CLEAN', 'INFECTED', 'SCAN_ERROR'], nullable: true }) scanStatus: string | null;
  @ApiProperty({ enum: UPLOAD_REVIEWS, enumName: 'UploadReview' }) review: UploadReview;
  @ApiProperty() uploaderName: string;
  @ApiProperty({ type: 'string', nullable: true }) uploaderEmail: string | null;
  @ApiProperty() message: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class RequestUploadListDto {
  @ApiProperty({ type: [RequestUploadDto] }) uploads: RequestUploadDto[];
  @ApiProperty({ type: 'string', nullable: true, description: NEXT_CURSOR_DESCRIPTION }) nextCursor: string | null;
}

export class RequestUploadResponseDto {
  @ApiProperty({ type: RequestUploadDto }) upload: RequestUploadDto;
}
