import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error.js';
import type { FileKind } from './file-names.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';

const MEDIA_TYPES: Record<FileKind, string> = {
  MARKDOWN: 'text/markdown; charset=utf-8',
  HTML: 'text/html; charset=utf-8',
  TEXT: 'text/plain; charset=utf-8',
};

export interface FileText {
  name: string;
  mediaType: string;
  versionId: string;
  versionNo: number;
  text: string;
}

/**
 * The text a share of the file would serve, for the REST route, `files cat` and MCP reads.
 * The version is chosen like the viewer's gate chooses it (the share_gate view): the newest CLEAN
 * version, unless the current one is quarantined, which quarantines the whole file. Nothing that
 * was not found clean is ever handed out.
 */
@Injectable()
export class FileTextService {
  constructor(
    private readonly files: FilesRepository,
    private readonly filesService: FilesService,
  ) {}

  async servedText(userId: string, fileId: string): Promise<FileText> {
    const file = await this.filesService.findLive(userId, fileId);
    const versions = await this.files.listVersions(file.id);
    const current = versions.find((version) => version.id === file.currentVersionId);
    if (current?.scanStatus === 'INFECTED') {
      throw new AppError(ErrorCode.INFECTED, `文件已被杀毒扫描隔离（${current.scanResult ?? '未知特征'}），不能读取`);
    }
    // listVersions is newest first.
    const clean = versions.find((version) => version.scanStatus === 'CLEAN');
    if (!clean) {
      throw new AppError(
        ErrorCode.CONFLICT,
        current?.scanStatus === 'SCAN_ERROR' ? '文件扫描失败，正在重试，暂不能读取' : '文件正在进行杀毒扫描，暂不能读取',
      );
    }
    const version = await this.files.findVersion(file.id, clean.id);
    if (!version) throw AppError.notFound('文件不存在');
    return {
      name: file.name,
      mediaType: MEDIA_TYPES[file.kind],
      versionId: version.id,
      versionNo: version.versionNo,
      text: version.content,
    };
  }
}
