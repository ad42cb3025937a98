import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { FILE_KINDS, type FileKind } from '../files/file-names.js';
import { ISSUE_CODES, type IssueCode } from './issue-codes.js';
import { MAX_VALIDATE_CHARACTERS } from './validate.js';

export class ValidateRequestDto {
  @ApiProperty({
    maxLength: MAX_VALIDATE_CHARACTERS,
    description: `the text to check, at most ${MAX_VALIDATE_CHARACTERS} characters`,
  })
  @IsString({ message: 'content 必须是字符串' })
  content: string;

  @ApiProperty({ enum: FILE_KINDS, enumName: 'FileKind' })
  @IsIn(FILE_KINDS, { message: `kind 必须是 ${FILE_KINDS.join('、')} 之一` })
  kind: FileKind;
}

export class ValidationIssueDto {
  @ApiProperty({ enum: ['error', 'warning', 'info'] }) level: 'error' | 'warning' | 'info';
  @ApiProperty({
    enum: ISSUE_CODES,
    enumName: 'ValidationIssueCode',
    description:
      'what kind of issue, stable across releases and languages; MORE_ISSUES sums up params.count further issues of params.code',
  })
  code: IssueCode;
  @ApiProperty({ description: 'the issue in words (Chinese)' }) message: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'what the message names, by code: tag, attribute, id, character (U+XXXX), label, url, fence, ' +
      'open (the unclosed element), line/col (of a first or open occurrence), count and code (MORE_ISSUES)',
    example: { tag: 'div' },
  })
  params?: Record<string, string>;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: '1-based line' }) line?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: '1-based column in the normalized text' }) col?: number;
}

export class ValidateResultDto {
  @ApiProperty({ enum: FILE_KINDS, enumName: 'FileKind' }) kind: FileKind;
  @ApiProperty({ description: 'false when any issue has level error' }) ok: boolean;
  @ApiProperty({
    description: 'content after normalization: BOM removed, CRLF → LF, tab → 4 spaces, trailing whitespace trimmed',
  })
  normalized: string;
  @ApiProperty({ type: [ValidationIssueDto] }) issues: ValidationIssueDto[];
}
