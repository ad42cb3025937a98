import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { LIMITS } from '@sharedown/contract/limits';

const PASSWORD = LIMITS.accountPassword;

export class ChangePasswordDto {
  @ApiProperty({
    required: false,
    maxLength: PASSWORD.max,
    description: 'required when the account has a password; omitted by accounts made by an e-mail code or single sign-on',
  })
  @IsOptional()
  @IsString({ message: 'currentPassword 必须是字符串' })
  @MaxLength(PASSWORD.max, { message: `currentPassword 最长 ${PASSWORD.max} 个字符` })
  currentPassword?: string;

  @ApiProperty({ minLength: PASSWORD.min, maxLength: PASSWORD.max })
  @IsString({ message: 'newPassword 必须是字符串' })
  @Length(PASSWORD.min, PASSWORD.max, { message: `newPassword 长度必须在 ${PASSWORD.min} 到 ${PASSWORD.max} 个字符之间` })
  newPassword: string;
}
