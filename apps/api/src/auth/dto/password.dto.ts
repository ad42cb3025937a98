import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';

export class ChangePasswordDto {
  @ApiProperty({
    required: false,
    maxLength: 128,
    description: 'required when the account has a password; omitted by accounts made by an e-mail code or single sign-on',
  })
  @IsOptional()
  @IsString({ message: 'currentPassword 必须是字符串' })
  @MaxLength(128, { message: 'currentPassword 最长 128 个字符' })
  currentPassword?: string;

  @ApiProperty({ minLength: 8, maxLength: 128 })
  @IsString({ message: 'newPassword 必须是字符串' })
  @Length(8, 128, { message: 'newPassword 长度必须在 8 到 128 个字符之间' })
  newPassword: string;
}
