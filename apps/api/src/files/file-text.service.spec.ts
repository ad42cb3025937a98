import { describe, expect, it } from 'vitest';
import { AppError } from '../common/app-error.js';
import type { ScanStatus } from '../viewer/share-view/share-view.repository.js';
import { FileTextService } from './file-text.service.js';
import type { FileRecord, FilesRepository, VersionRecord, VersionWithContent } from './files.repository.js';
import type { FilesService } from './files.service.js';

const FILE_ID = '11111111-1111-4111-8111-111111111111';

function version(versionNo: number, scanStatus: ScanStatus): VersionRecord {
  return {
    id: `00000000-0000-4000-8000-00000000000${versionNo}`,
    fileId: FILE_ID,
    versionNo,
    sizeBytes: 10,
    sha256: 'x',
    scanStatus,
    scanResult: scanStatus === 'INFECTED' ? 'Eicar-Signature' : null,
    scannedAt: null,
    createdAt: new Date(),
  };
}

/** A file whose versions (oldest first) have these states; the last one is current. */
function sutOf(...states: ScanStatus[]) {
  const versions = states.map((state, index) => version(index + 1, state));
  const current = versions[versions.length - 1]!;
  const file = { id: FILE_ID, name: 'a.md', kind: 'MARKDOWN', currentVersionId: current.id } as FileRecord;
  const repository = {
    listVersions: async () => [...versions].reverse(),
    findVersion: async (_fileId: string, id: string): Promise<VersionWithContent | null> => {
      const found = versions.find((candidate) => candidate.id === id);
      return found ? { ...found, content: `text of v${found.versionNo}` } : null;
    },
  } as unknown as FilesRepository;
  const service = { findLive: async () => file } as unknown as FilesService;
  return new FileTextService(repository, service);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

describe(FileTextService.name, () => {
  it('serves the newest clean version with the media type of the kind', async () => {
    const sut = sutOf('CLEAN', 'CLEAN');
    expect(await sut.servedText('user', FILE_ID)).toMatchObject({
      mediaType: 'text/markdown; charset=utf-8',
      versionNo: 2,
      text: 'text of v2',
    });
  });

  it('keeps serving the last clean version while a new one is scanned, as a share would', async () => {
    expect(await sutOf('CLEAN', 'PENDING').servedText('user', FILE_ID)).toMatchObject({ versionNo: 1 });
  });

  it('refuses a file whose current version is quarantined, even with an older clean one', async () => {
    expect(await codeOf(sutOf('CLEAN', 'INFECTED').servedText('user', FILE_ID))).toBe('INFECTED');
  });

  it('answers CONFLICT while no version has been found clean', async () => {
    expect(await codeOf(sutOf('PENDING').servedText('user', FILE_ID))).toBe('CONFLICT');
    expect(await codeOf(sutOf('SCAN_ERROR').servedText('user', FILE_ID))).toBe('CONFLICT');
  });
});
