import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { CredentialsDto } from './auth.dto.js';

export class LoginDto extends CredentialsDto {
  @ApiProperty({
    required: false,
    minLength: 6,
    maxLength: 32,
    description:
      'second factor of an account with two-factor authentication: a 6-digit TOTP code or a recovery code. ' +
      'Without it such an account answers 401 with `twoFactorRequired: true`.',
  })
  @IsOptional()
  @IsString({ message: 'code 必须是字符串' })
  @Length(6, 32, { message: 'code 长度必须在 6 到 32 个字符之间' })
  code?: string;
}
