import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from './error-code.js';

export class ErrorEnvelopeDto {
  @ApiProperty({ description: 'human-readable message (Chinese)' }) error: string;
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode' }) code: ErrorCode;
  @ApiProperty({
    required: false,
    type: Boolean,
    description:
      'on a 401 from POST /api/auth/login: the password was right, and the account asks for its second factor (send `code`); ' +
      'from the e-mail code routes (email-code/verify, verify-email, password-reset/confirm): the e-mail code was right and ' +
      'stays usable, send it again with `twoFactorCode`',
  })
  twoFactorRequired?: boolean;

  @ApiProperty({
    required: false,
    type: Boolean,
    description:
      'on a 403 from POST /api/auth/login with e-mail configured: the password (and second factor) was right, but the ' +
      "account's address was never proven, and until it is no password opens the account. The code mailed at " +
      'registration (POST /api/auth/verify-email), a sign-in code (email-code) or a password reset proves it',
  })
  emailUnverified?: boolean;

  @ApiProperty({
    required: false,
    type: String,
    example: 'slug',
    description:
      'on a VALIDATION error about one request field: its name, a dotted path for a nested member (`share.expiresInDays`); ' +
      'lets a client point at the field and word the problem in its own language',
  })
  field?: string;
}
