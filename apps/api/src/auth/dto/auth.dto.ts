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
import { TOKEN_SCOPES, type TokenScope } from '../token-scope.js';
import { NoControlCharacters } from '../../common/text-rules.js';

export class CredentialsDto {
  @ApiProperty({ format: 'email', maxLength: 254, example: 'alice@example.com' })
  @IsEmail({}, { message: 'email 必须是有效的电子邮件地址' })
  @MaxLength(254, { message: 'email 最长 254 个字符' })
  email: string;

  @ApiProperty({ minLength: 8, maxLength: 128 })
  @IsString({ message: 'password 必须是字符串' })
  @Length(8, 128, { message: 'password 长度必须在 8 到 128 个字符之间' })
  password: string;
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
}

export class SessionResponseDto {
  @ApiProperty({ type: ConsoleUserDto }) user: ConsoleUserDto;
}

export class UpdateAccountDto {
  @ApiProperty({ pattern: '^[a-z0-9][a-z0-9_-]{2,31}$', description: 'new owner segment' })
  @IsString({ message: 'segment 必须是字符串' })
  @Matches(/^[a-z0-9][a-z0-9_-]{2,31}$/, { message: 'segment 必须为 3-32 位小写字母、数字、_ 或 -，且以字母或数字开头' })
  segment: string;
}

export class OkDto {
  @ApiProperty({ example: true }) ok: boolean;
}

export class CreateTokenDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'ci' })
  @IsString({ message: 'name 必须是字符串' })
  @Length(1, 100, { message: 'name 长度必须在 1 到 100 个字符之间' })
  @NoControlCharacters('name')
  name: string;

  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: 600, default: 5 })
  @IsOptional()
  @IsInt({ message: 'rateLimitPerMinute 必须是整数' })
  @Min(1, { message: 'rateLimitPerMinute 必须在 1 到 600 之间' })
  @Max(600, { message: 'rateLimitPerMinute 必须在 1 到 600 之间' })
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

  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: 3650, description: 'days until the token expires; omitted = never' })
  @IsOptional()
  @IsInt({ message: 'expiresInDays 必须是整数' })
  @Min(1, { message: 'expiresInDays 必须在 1 到 3650 之间' })
  @Max(3650, { message: 'expiresInDays 必须在 1 到 3650 之间' })
  expiresInDays?: number;
}

export class ApiTokenDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'the public part of the token, shd_<prefix>_…' }) prefix: string;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 600 }) rateLimitPerMinute: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' }) lastUsedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' }) revokedAt: string | null;
  @ApiProperty({ type: [String], enum: TOKEN_SCOPES, description: 'what the token may do' }) scopes: TokenScope[];
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string', description: 'null = never expires' }) expiresAt: string | null;
}

export class CreatedTokenDto {
  @ApiProperty({ type: ApiTokenDto }) token: ApiTokenDto;
  @ApiProperty({ description: 'shd_<prefix>_<secret>; shown only in this response' }) plaintext: string;
}

export class TokenListDto {
  @ApiProperty({ type: [ApiTokenDto] }) tokens: ApiTokenDto[];
  @ApiPropertyOptional({ type: 'string', nullable: true, description: NEXT_CURSOR_DESCRIPTION })
  nextCursor?: string | null;
  @ApiPropertyOptional({ type: 'integer', description: 'with `limit` or `cursor`: how many tokens `q` lets through, over all pages' })
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
