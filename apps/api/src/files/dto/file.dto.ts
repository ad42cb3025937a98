import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NEXT_CURSOR_DESCRIPTION } from '../../common/api-page-queries.decorator.js';
import { ShareDto } from '../../shares/share.dto.js';
import { FILE_KINDS, type FileKind } from '../file-names.js';
import { CreatedByDto } from '../../common/created-by.dto.js';

export const SCAN_STATUSES = ['PENDING', 'CLEAN', 'INFECTED', 'SCAN_ERROR'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

/** The contract's File resource, field for field. */
export class FileDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: FILE_KINDS, enumName: 'FileKind' }) kind: FileKind;
  @ApiProperty({ type: 'integer', description: 'size in bytes of the current version' }) sizeBytes: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'null for the root folder' }) folderId: string | null;
  @ApiPropertyOptional({
    type: 'integer',
    description: 'number of active shares of the file: not revoked, not consumed and not expired',
  })
  shareCount: number;
  @ApiProperty({
    enum: SCAN_STATUSES,
    enumName: 'ScanStatus',
    description: 'antivirus status of the current version; INFECTED files are quarantined',
  })
  scanStatus: ScanStatus;
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'virus signature when INFECTED' })
  scanResult: string | null;
  @ApiPropertyOptional({
    type: CreatedByDto,
    description:
      'in a shared workspace: the member who uploaded it (absent in a personal workspace and for a document request’s upload)',
  })
  createdBy?: CreatedByDto;
}

export class FileListDto {
  @ApiProperty({ type: [FileDto] }) files: FileDto[];
  @ApiPropertyOptional({ type: 'string', nullable: true, description: NEXT_CURSOR_DESCRIPTION })
  nextCursor?: string | null;
}

export class FileResponseDto {
  @ApiProperty({ type: FileDto }) file: FileDto;
}

/** `POST /files` answers `{ file }`, plus `share` and `url` when a share was requested. */
export class UploadResponseDto {
  @ApiProperty({ type: FileDto }) file: FileDto;
  @ApiPropertyOptional({ type: ShareDto, description: 'present when the share field was sent' }) share?: ShareDto;
  @ApiPropertyOptional({ format: 'uri', description: 'absolute view URL, present when the share field was sent' }) url?: string;
}

export class UploadFormDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description: 'the document: .html .htm .md .markdown .txt .text, UTF-8, at most 10 MB',
  })
  file: unknown;
  @ApiPropertyOptional({ description: 'target folder; the root folder when absent' }) folderId?: string;
  @ApiPropertyOptional({ description: 'a JSON-encoded ShareInput: creates a share of the new file in the same transaction' })
  share?: string;
}
