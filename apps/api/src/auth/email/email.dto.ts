import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { LIMITS } from '@sharedown/contract/limits';
import { ConsoleUserDto } from '../dto/auth.dto.js';

const PASSWORD = LIMITS.accountPassword;

export class EmailAddressDto {
  @ApiProperty({ format: 'email', maxLength: LIMITS.email.max, example: 'alice@example.com' })
  @IsEmail({}, { message: 'email 必须是有效的电子邮件地址' })
  @MaxLength(LIMITS.email.max, { message: `email 最长 ${LIMITS.email.max} 个字符` })
  email: string;
}

export class EmailCodeDto extends EmailAddressDto {
  @ApiProperty({ pattern: '^[0-9]{6}$', example: '123456', description: 'the six-digit code from the e-mail' })
  @IsString({ message: 'code 必须是字符串' })
  @Matches(/^[0-9]{6}$/, { message: 'code 必须是 6 位数字' })
  code: string;

  @ApiProperty({
    required: false,
    minLength: 6,
    maxLength: 32,
    description:
      'second factor of an account with two-factor authentication: a 6-digit TOTP code or a recovery code. ' +
      'Without it such an account answers 401 with `twoFactorRequired: true` (the e-mail code stays usable).',
  })
  @IsOptional()
  @IsString({ message: 'twoFactorCode 必须是字符串' })
  @Length(6, 32, { message: 'twoFactorCode 长度必须在 6 到 32 个字符之间' })
  twoFactorCode?: string;
}

export class PasswordResetConfirmDto extends EmailCodeDto {
  @ApiProperty({ minLength: PASSWORD.min, maxLength: PASSWORD.max })
  @IsString({ message: 'newPassword 必须是字符串' })
  @Length(PASSWORD.min, PASSWORD.max, { message: `newPassword 长度必须在 ${PASSWORD.min} 到 ${PASSWORD.max} 个字符之间` })
  newPassword: string;
}

/**
 * POST /api/auth/register: `user` and a session without e-mail configured (as before); with it,
 * `verificationRequired` alone, the same for new and taken addresses, and no session.
 */
export class RegisterResponseDto {
  @ApiProperty({
    type: ConsoleUserDto,
    required: false,
    description: 'the new account, signed in; absent when `verificationRequired` is true',
  })
  user?: ConsoleUserDto;

  @ApiProperty({
    required: false,
    type: Boolean,
    description:
      'e-mail is configured: a code was mailed (or, for an address that already has an account, a note to its owner); ' +
      'POST /api/auth/verify-email with it signs in. No session is set.',
  })
  verificationRequired?: boolean;
}
