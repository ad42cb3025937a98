import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class TwoFactorCodeDto {
  @ApiProperty({
    minLength: 6,
    maxLength: 32,
    example: '123456',
    description: 'a 6-digit code from the authenticator app, or one of the recovery codes (xxxxx-xxxxx)',
  })
  @IsString({ message: 'code 必须是字符串' })
  @Length(6, 32, { message: 'code 长度必须在 6 到 32 个字符之间' })
  code: string;
}

export class TwoFactorSetupDto {
  @ApiProperty({
    description: 'the new TOTP secret (Base32), for typing into an authenticator by hand',
    example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  })
  secret: string;
  @ApiProperty({
    description: 'otpauth:// address of the secret, for a QR code',
    example: 'otpauth://totp/Sharedown:alice%40example.com?secret=…&issuer=Sharedown',
  })
  otpauthUrl: string;
}

export class RecoveryCodesDto {
  @ApiProperty({
    type: [String],
    minItems: 10,
    maxItems: 10,
    example: [
      'k3m9q-x7t2a',
      'p4wzr-8cn2h',
      'd7fjs-qm3xe',
      'u9bta-5kvwn',
      'h2ycg-r6dmp',
      'e8nqx-w3jtz',
      'a5rkm-t9fsb',
      'y3vhd-c7pqu',
      'g6xne-b2wka',
      'm8tjr-s4zfc',
    ],
    description: 'ten one-time recovery codes; shown only in this answer, stored only as digests',
  })
  recoveryCodes: string[];
}

export class TwoFactorStatusDto {
  @ApiProperty({ description: 'two-factor authentication is on' }) enabled: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 10, description: 'recovery codes not used yet' })
  recoveryCodesLeft: number;
}
