import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NEXT_CURSOR_DESCRIPTION } from '../../common/api-page-queries.decorator.js';
import {
  ArrayContains,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { LIMITS, SEGMENT_PATTERN } from '@sharedown/contract/limits';
import { TOKEN_SCOPES, type TokenScope } from '../tokens/token-scope.js';
import { NoControlCharacters } from '../../common/text/text-rules.js';

const { accountPassword: PASSWORD, tokenName: TOKEN_NAME, tokenRate: TOKEN_RATE, tokenExpiryDays: TOKEN_EXPIRY } = LIMITS;

export class CredentialsDto {
  @ApiProperty({ format: 'email', maxLength: LIMITS.email.max, example: 'alice@example.com' })
  @IsEmail({}, { message: 'email 必须是有效的电子邮件地址' })
  @MaxLength(LIMITS.email.max, { message: `email 最长 ${LIMITS.email.max} 个字符` })
  email: string;

  @ApiProperty({ minLength: PASSWORD.min, maxLength: PASSWORD.max })
  @IsString({ message: 'password 必须是字符串' })
  @Length(PASSWORD.min, PASSWORD.max, { message: `password 长度必须在 ${PASSWORD.min} 到 ${PASSWORD.max} 个字符之间` })
  password: string;
}

export class RegisterDto extends CredentialsDto {
  @ApiProperty({
    required: false,
    maxLength: 100,
    description: 'the token of an invitation link (`?invite=`); needed when registration is invite-only, ignored when open',
  })
  @IsOptional()
  @IsString({ message: 'invite 必须是字符串' })
  @Length(1, 100, { message: 'invite 长度必须在 1 到 100 个字符之间' })
  invite?: string;
}

export class ConsoleUserDto {
  @ApiProperty() id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ description: 'public owner segment used in share URLs' }) segment: string;
  @ApiProperty({ type: 'integer' }) quotaBytes: number;
  @ApiProperty({ type: 'integer' }) usedBytes: number;
  @ApiProperty({ description: 'the address is proven (e-mail code or single sign-on); only then it passes e-mail allowlists' })
  emailVerified: boolean;
  @ApiProperty({ description: 'false for accounts made by an e-mail code or single sign-on that have not set a password' })
  hasPassword: boolean;
  @ApiProperty({ description: 'two-factor authentication (TOTP) is on' }) twoFactorEnabled: boolean;
  @ApiProperty({
    description:
      'an administrator of the instance: its first account, or an address ADMIN_EMAILS names once it is proven (with ' +
      'SMTP_URL set, the first account too waits for its address to be proven); the console shows its Admin area',
  })
  isAdmin: boolean;
}

export class SessionResponseDto {
  @ApiProperty({ type: ConsoleUserDto }) user: ConsoleUserDto;
}

export class UpdateAccountDto {
  @ApiProperty({ pattern: SEGMENT_PATTERN.source, description: 'new owner segment' })
  @IsString({ message: 'segment 必须是字符串' })
  @Matches(SEGMENT_PATTERN, { message: 'segment 必须为 3-32 位小写字母、数字、_ 或 -，且以字母或数字开头' })
  segment: string;
}

export class OkDto {
  @ApiProperty({ example: true }) ok: boolean;
}

export class CreateTokenDto {
  @ApiProperty({ minLength: TOKEN_NAME.min, maxLength: TOKEN_NAME.max, example: 'ci' })
  @IsString({ message: 'name 必须是字符串' })
  @Length(TOKEN_NAME.min, TOKEN_NAME.max, { message: `name 长度必须在 ${TOKEN_NAME.min} 到 ${TOKEN_NAME.max} 个字符之间` })
  @NoControlCharacters('name')
  name: string;

  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: TOKEN_RATE.min,
    maximum: TOKEN_RATE.max,
    default: TOKEN_RATE.default,
  })
  @IsOptional()
  @IsInt({ message: 'rateLimitPerMinute 必须是整数' })
  @Min(TOKEN_RATE.min, { message: `rateLimitPerMinute 必须在 ${TOKEN_RATE.min} 到 ${TOKEN_RATE.max} 之间` })
  @Max(TOKEN_RATE.max, { message: `rateLimitPerMinute 必须在 ${TOKEN_RATE.min} 到 ${TOKEN_RATE.max} 之间` })
  rateLimitPerMinute?: number;

  @ApiProperty({
    required: false,
    type: [String],
    enum: TOKEN_SCOPES,
    default: ['read', 'write'],
    description: '["read"] for a read-only token, ["read","write"] (the default) for full access',
  })
  @IsOptional()
  @IsArray({ message: 'scopes 必须是数组' })
  @ArrayMinSize(1, { message: 'scopes 必须是 ["read"] 或 ["read","write"]' })
  @ArrayMaxSize(2, { message: 'scopes 必须是 ["read"] 或 ["read","write"]' })
  @ArrayUnique({ message: 'scopes 不能重复' })
  @ArrayContains(['read'], { message: 'scopes 必须是 ["read"] 或 ["read","write"]' })
  @IsIn(TOKEN_SCOPES, { each: true, message: 'scopes 只能包含 read 和 write' })
  scopes?: TokenScope[];

  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: TOKEN_EXPIRY.min,
    maximum: TOKEN_EXPIRY.max,
    description: 'days until the token expires; omitted = never',
  })
  @IsOptional()
  @IsInt({ message: 'expiresInDays 必须是整数' })
  @Min(TOKEN_EXPIRY.min, { message: `expiresInDays 必须在 ${TOKEN_EXPIRY.min} 到 ${TOKEN_EXPIRY.max} 之间` })
  @Max(TOKEN_EXPIRY.max, { message: `expiresInDays 必须在 ${TOKEN_EXPIRY.min} 到 ${TOKEN_EXPIRY.max} 之间` })
  expiresInDays?: number;
}

export class ApiTokenDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'the public part of the token, shd_<prefix>_…' }) prefix: string;
  @ApiProperty({ type: 'integer', minimum: TOKEN_RATE.min, maximum: TOKEN_RATE.max }) rateLimitPerMinute: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' }) lastUsedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' }) revokedAt: string | null;
  @ApiProperty({ type: [String], enum: TOKEN_SCOPES, description: 'what the token may do' }) scopes: TokenScope[];
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string', description: 'null = never expires' }) expiresAt:
    string | null;
}

export class CreatedTokenDto {
  @ApiProperty({ type: ApiTokenDto }) token: ApiTokenDto;
  @ApiProperty({ description: 'shd_<prefix>_<secret>; shown only in this response' }) plaintext: string;
}

export class TokenListDto {
  @ApiProperty({ type: [ApiTokenDto] }) tokens: ApiTokenDto[];
  @ApiPropertyOptional({ type: 'string', nullable: true, description: NEXT_CURSOR_DESCRIPTION })
  nextCursor?: string | null;
  @ApiPropertyOptional({
    type: 'integer',
    description: 'with `limit` or `cursor`: how many tokens `q` lets through, over all pages',
  })
  total?: number;
}

export class TokenResponseDto {
  @ApiProperty({ type: ApiTokenDto }) token: ApiTokenDto;
}

export class PublicUserDto {
  @ApiProperty() id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ type: 'integer' }) quotaBytes: number;
  @ApiProperty({ type: 'integer' }) usedBytes: number;
}

export class AuthInfoDto {
  @ApiProperty({ enum: ['token'] }) source: 'token';
  @ApiProperty() tokenId: string;
}

export class MeDto {
  @ApiProperty({ type: PublicUserDto }) user: PublicUserDto;
  @ApiProperty({ type: AuthInfoDto }) auth: AuthInfoDto;
}
