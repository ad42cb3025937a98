import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { SharedownApiError, type Schemas } from '@sharedown/contract';
import { describe, expect, it } from 'vitest';
import { documentResourceOf, documentUri, RESOURCE_NOT_FOUND, resourceErrorOf } from './documents.js';

const file: Schemas['FileDto'] = {
  id: 'f1',
  name: 'notes.md',
  kind: 'MARKDOWN',
  sizeBytes: 8,
  createdAt: '2025-01-01T00:00:00.000Z',
  folderId: null,
  shareCount: 0,
  scanStatus: 'CLEAN',
  scanResult: null,
};

describe(documentResourceOf.name, () => {
  it('lists a file under its URI with its name, media type and size', () => {
    expect(documentResourceOf(file)).toEqual({
      uri: 'sharedown://files/f1',
      name: 'notes.md',
      title: 'notes.md',
      mimeType: 'text/markdown',
      size: 8,
      description: 'MARKDOWN document, 8 bytes.',
    });
  });

  it('says when a file cannot be read', () => {
    expect(documentResourceOf({ ...file, scanStatus: 'PENDING' }).description).toContain('being scanned');
    expect(documentResourceOf({ ...file, scanStatus: 'INFECTED', scanResult: 'Eicar-Signature' }).description).toContain(
      'quarantined by the malware scan (Eicar-Signature)',
    );
  });
});

describe(documentUri.name, () => {
  it('escapes what would break the URI', () => {
    expect(documentUri('a/b c')).toBe('sharedown://files/a%2Fb%20c');
  });
});

describe(resourceErrorOf.name, () => {
  const url = 'http://sharedown.test';

  it("answers a missing file with the spec's resource-not-found code", () => {
    const error = resourceErrorOf(new SharedownApiError(404, 'NOT_FOUND', '文件不存在'), url);
    expect(error).toMatchObject({ code: RESOURCE_NOT_FOUND, data: { code: 'NOT_FOUND', status: 404 } });
    expect(error.message).toBe('NOT_FOUND: 文件不存在');
  });

  it("keeps the service's code in the data of any other failure", () => {
    const error = resourceErrorOf(new SharedownApiError(409, 'INFECTED', '已隔离'), url);
    expect(error).toMatchObject({ code: ErrorCode.InternalError, data: { code: 'INFECTED', status: 409, message: '已隔离' } });
  });
});
