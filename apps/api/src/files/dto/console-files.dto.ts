import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { NoControlCharacters } from '../../common/text/text-rules.js';
import { FileDto, SCAN_STATUSES, type ScanStatus } from './file.dto.js';

/** A file uploaded through a document request: which one, and the owner's review of it. */
export class FileFromRequestDto {
  @ApiProperty({ format: 'uuid' }) requestId: string;
  @ApiProperty({ enum: ['PENDING', 'ACCEPTED', 'REJECTED'] }) review: 'PENDING' | 'ACCEPTED' | 'REJECTED';
}

export class ConsoleFileDto extends FileDto {
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ description: 'id of the current version' }) currentVersionId: string;
  @ApiProperty({ type: 'integer', description: 'number of the current version (1 for a fresh upload)' }) versionNo: number;
  @ApiProperty({
    type: FileFromRequestDto,
    nullable: true,
    description: 'the document request it was uploaded through (a "from request" badge); null for the owner’s own files',
  })
  fromRequest: FileFromRequestDto | null;
}

export class ConsoleFileResponseDto {
  @ApiProperty({ type: ConsoleFileDto }) file: ConsoleFileDto;
}

export class ConsoleFilePageDto {
  @ApiProperty({ type: [ConsoleFileDto] }) files: ConsoleFileDto[];
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ type: 'integer' }) page: number;
  @ApiProperty({ type: 'integer' }) pageSize: number;
}

export class ConsoleFilesQueryDto {
  @ApiPropertyOptional({ description: 'a folder id, or `root` for the files outside any folder; all folders when absent' })
  @IsOptional()
  @IsString()
  @NoControlCharacters('folderId')
  folderId?: string;

  @ApiPropertyOptional({ description: 'case-insensitive part of the file name' })
  @IsOptional()
  @IsString()
  @NoControlCharacters('q')
  q?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @Matches(/^[1-9]\d{0,6}$/, { message: 'page 必须是正整数' })
  page?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Matches(/^(?:[1-9]\d?|1\d\d|200)$/, { message: 'pageSize 必须在 1 到 200 之间' })
  pageSize?: string;
}

export const CONFLICT_MODES = ['fail', 'overwrite', 'rename'] as const;

export class ConsoleUploadFormDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description: 'the document (.html .htm .md .markdown .txt .text, UTF-8, ≤ 10 MB)',
  })
  file: unknown;
  @ApiPropertyOptional({ description: 'target folder; the root folder when absent' }) folderId?: string;
  @ApiPropertyOptional({
    enum: CONFLICT_MODES,
    default: 'fail',
    description:
      'when a live file of the same name exists: fail (409 DUPLICATE), overwrite (the upload becomes its new version), ' +
      'rename (stored as `name (1).ext`, `name (2).ext`, …)',
  })
  conflict?: (typeof CONFLICT_MODES)[number];
}

export class ConsoleUploadResultDto {
  @ApiProperty({ type: ConsoleFileDto }) file: ConsoleFileDto;
  @ApiProperty({ enum: ['created', 'overwritten', 'renamed'] }) outcome: 'created' | 'overwritten' | 'renamed';
}

export class VersionUploadFormDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description: 'the new content; its extension, if any, must match the file kind',
  })
  file: unknown;
}

export class UpdateFileDto {
  @ApiPropertyOptional({ description: 'new name (same extension rules as uploads)' })
  @IsOptional()
  @IsString({ message: 'name 必须是字符串' })
  name?: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'target folder; null moves the file to the root' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString({ message: 'folderId 必须是字符串或 null' })
  folderId?: string | null;
}

export class FileVersionDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: 'integer' }) versionNo: number;
  @ApiProperty({ type: 'integer' }) sizeBytes: number;
  @ApiProperty() sha256: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ enum: SCAN_STATUSES, enumName: 'ScanStatus' }) scanStatus: ScanStatus;
  @ApiPropertyOptional({ type: 'string', nullable: true }) scanResult: string | null;
  @ApiProperty({ description: 'true for the version the file currently shows' }) current: boolean;
}

export class FileVersionListDto {
  @ApiProperty({ type: [FileVersionDto], description: 'newest first' }) versions: FileVersionDto[];
}

export class VersionResultDto {
  @ApiProperty({ type: ConsoleFileDto }) file: ConsoleFileDto;
  @ApiProperty({ type: FileVersionDto }) version: FileVersionDto;
}

export class FileContentDto {
  @ApiProperty() fileId: string;
  @ApiProperty() versionId: string;
  @ApiProperty({ type: 'integer' }) versionNo: number;
  @ApiProperty({ enum: ['HTML', 'MARKDOWN', 'TEXT'], enumName: 'FileKind' }) kind: 'HTML' | 'MARKDOWN' | 'TEXT';
  @ApiProperty({ enum: SCAN_STATUSES, enumName: 'ScanStatus' }) scanStatus: ScanStatus;
  @ApiProperty({ description: 'the stored text, exactly as uploaded' }) content: string;
}

export class FolderDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'null for a top-level folder' }) parentId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class FolderNodeDto extends FolderDto {
  @ApiProperty({ type: () => [FolderNodeDto] }) children: FolderNodeDto[];
}

export class FolderTreeDto {
  @ApiProperty({ type: [FolderNodeDto], description: 'top-level folders, each with its sub-folders' }) folders: FolderNodeDto[];
}

export class FolderResponseDto {
  @ApiProperty({ type: FolderDto }) folder: FolderDto;
}

export class CreateFolderDto {
  @ApiProperty({ maxLength: 255 })
  @IsString({ message: 'name 必须是字符串' })
  name: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'parent folder; top level when absent or null' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString({ message: 'parentId 必须是字符串或 null' })
  parentId?: string | null;
}

export class UpdateFolderDto {
  @ApiPropertyOptional({ maxLength: 255, description: 'new name' })
  @IsOptional()
  @IsString({ message: 'name 必须是字符串' })
  name?: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'new parent; null moves the folder to the top level' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString({ message: 'parentId 必须是字符串或 null' })
  parentId?: string | null;
}

export class TrashFileDto extends FileDto {
  @ApiProperty({ format: 'date-time' }) deletedAt: string;
}

export class TrashFolderDto extends FolderDto {
  @ApiProperty({ format: 'date-time' }) deletedAt: string;
  @ApiProperty({ type: 'integer', description: 'files trashed together with the folder' }) fileCount: number;
}

export class TrashListDto {
  @ApiProperty({ type: [TrashFolderDto], description: 'folders moved to the trash (their content comes back with them)' })
  folders: TrashFolderDto[];
  @ApiProperty({ type: [TrashFileDto], description: 'files moved to the trash on their own' }) files: TrashFileDto[];
}

export class PurgeResultDto {
  @ApiProperty({ type: 'integer', description: 'files deleted for good' }) purgedFiles: number;
  @ApiProperty({ type: 'integer', description: 'storage returned to the quota' }) freedBytes: number;
}

export class RestoredFileDto {
  @ApiProperty({ type: ConsoleFileDto }) file: ConsoleFileDto;
  @ApiProperty({ description: 'true when the name was taken and the file came back under a numbered name' }) renamed: boolean;
}

export class RestoredFolderDto {
  @ApiProperty({ type: FolderDto }) folder: FolderDto;
  @ApiProperty() renamed: boolean;
}

export const isConflictMode = (value: string): value is (typeof CONFLICT_MODES)[number] =>
  (CONFLICT_MODES as readonly string[]).includes(value);
