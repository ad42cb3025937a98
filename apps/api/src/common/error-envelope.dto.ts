import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from './error-code.js';

export class ErrorEnvelopeDto {
  @ApiProperty({ description: 'human-readable message (Chinese)' }) error: string;
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode' }) code: ErrorCode;
  @ApiProperty({
    required: false,
    type: Boolean,
    description:
      'on a 401 from POST /api/auth/login: the password was right, and the account asks for its second factor (send `code`)',
  })
  twoFactorRequired?: boolean;
}
