import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from './error-code.js';

export class ErrorEnvelopeDto {
  @ApiProperty({ description: 'human-readable message (Chinese)' }) error: string;
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode' }) code: ErrorCode;
}
