import { Injectable, Logger } from '@nestjs/common';
import { ZipArchive } from 'archiver';
import type { Readable } from 'node:stream';
import { AppError, ErrorCode } from '../common/app-error.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { SharesService } from '../shares/shares.service.js';
import { UniquePaths, folderPaths, safeSegment } from './export-paths.js';
import { ExportRepository, type ExportFile } from './export.repository.js';

// An export reads every stored version of the account: a few an hour are plenty for a person,
// and a stolen session or token cannot turn it into a steady load.
const EXPORTS_PER_HOUR = 6;

const EXTENSIONS: Record<string, string> = { HTML: '.html', MARKDOWN: '.md', TEXT: '.txt' };

export interface AccountExport {
  fileName: string;
  stream: Readable;
}

/**
 * A workspace's documents as a zip (an account's own, or a shared workspace's with its members): `documents/` holds each live file's current version
 * under its folder path, `trash/` the trashed ones not yet purged, and `versions/<path>/` every
 * version as v<N>; `manifest.json` lists folders, files and versions (with their checksums and scan
 * status), `shares.json` the share list as the API gives it (never a password). Versions not
 * found clean are listed but not included.
 */
@Injectable()
export class ExportService {
  private readonly logger = new Logger('Export');

  constructor(
    private readonly repository: ExportRepository,
    private readonly shares: SharesService,
    private readonly limiter: RateLimiter,
  ) {}

  async export(user: { id: string; email: string }): Promise<AccountExport> {
    const decision = await this.limiter.consume(`export:${user.id}`, EXPORTS_PER_HOUR, 3600);
    if (!decision.allowed) {
      throw new AppError(ErrorCode.RATE_LIMITED, '导出过于频繁，请稍后再试', {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
    const [folders, files, shares, workspace] = await Promise.all([
      this.repository.folders(user.id),
      this.repository.files(user.id),
      this.shares.list(user.id),
      this.repository.workspace(user.id),
    ]);
    const paths = folderPaths(folders);
    const unique = new UniquePaths();
    const entries = files.map((file) => this.place(file, paths, unique));

    const exportedAt = new Date();
    const zip = new ZipArchive({ zlib: { level: 6 } });
    const pacer = new EntryPacer(zip);
    const manifest = {
      format: 'sharedown-export',
      version: 1,
      exportedAt: exportedAt.toISOString(),
      account: { id: user.id, email: user.email },
      // A shared workspace's export names the workspace, its members and who made each file;
      // a personal one's keeps the shape it always had.
      ...(workspace ? { workspace } : {}),
      folders: folders.map((folder) => ({ id: folder.id, path: paths.get(folder.id)!.join('/'), trashed: folder.trashed })),
      files: entries.map(({ file, document, versions }) => ({
        id: file.id,
        name: file.name,
        kind: file.kind,
        trashed: file.trashed,
        createdAt: file.createdAt,
        ...(workspace ? { createdBy: file.createdBy } : {}),
        path: document,
        versions: file.versions.map((version, index) => ({
          versionNo: version.versionNo,
          current: version.id === file.currentVersionId,
          sizeBytes: version.sizeBytes,
          sha256: version.sha256,
          scanStatus: version.scanStatus,
          createdAt: version.createdAt,
          path: version.scanStatus === 'CLEAN' ? versions[index] : null,
        })),
      })),
    };
    pacer.append(`${JSON.stringify(manifest, null, 2)}\n`, { name: 'manifest.json', date: exportedAt });
    pacer.append(`${JSON.stringify(shares, null, 2)}\n`, { name: 'shares.json', date: exportedAt });
    // Content is read one version at a time, as the zip asks for more, so memory stays flat.
    void this.appendContent(user.id, entries, zip, pacer).catch((error: unknown) => {
      this.logger.error(`export of ${user.id} failed: ${error instanceof Error ? error.message : error}`);
      zip.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    const day = exportedAt.toISOString().slice(0, 10);
    return { fileName: `sharedown-export-${day}.zip`, stream: zip };
  }

  private place(file: ExportFile, paths: Map<string, string[]>, unique: UniquePaths) {
    const folder = file.folderId ? (paths.get(file.folderId) ?? []) : [];
    const name = safeSegment(file.name);
    const document = unique.claim([file.trashed ? 'trash' : 'documents', ...folder, name].join('/'));
    const extension = EXTENSIONS[file.kind] ?? '.txt';
    const versionsDir = unique.claim(['versions', ...folder, name].join('/'));
    const versions = file.versions.map((version) => `${versionsDir}/v${version.versionNo}${extension}`);
    return { file, document, versions };
  }

  private async appendContent(
    userId: string,
    entries: ReturnType<ExportService['place']>[],
    zip: ZipArchive,
    pacer: EntryPacer,
  ): Promise<void> {
    for (const { file, document, versions } of entries) {
      for (const [index, version] of file.versions.entries()) {
        if (version.scanStatus !== 'CLEAN') continue;
        await pacer.settle(2);
        if (zip.destroyed) return;
        const content = await this.repository.cleanContent(userId, version.id);
        if (content === null) continue;
        pacer.append(content, { name: versions[index]!, date: version.createdAt });
        if (version.id === file.currentVersionId) pacer.append(content, { name: document, date: version.createdAt });
      }
    }
    await zip.finalize();
  }
}

/**
 * Counts the entries the zip has written, so content is read from the database only as fast as
 * the download takes it: a slow client never makes the whole account pile up in memory.
 */
class EntryPacer {
  private appended = 0;
  private written = 0;
  private wake: (() => void) | null = null;

  constructor(private readonly zip: ZipArchive) {
    zip.on('entry', () => {
      this.written += 1;
      this.wake?.();
    });
  }

  append(content: string, data: { name: string; date: Date }): void {
    this.appended += 1;
    this.zip.append(content, data);
  }

  /** Resolves once at most `pending` appended entries are still unwritten (or the zip was torn down). */
  async settle(pending: number): Promise<void> {
    while (this.appended - this.written > pending && !this.zip.destroyed) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 250).unref();
      });
      this.wake = null;
    }
  }
}
