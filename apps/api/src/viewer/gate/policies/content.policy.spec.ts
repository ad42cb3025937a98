import { describe, expect, it } from 'vitest';
import type { DocumentCache, ServedDocument } from '../../documents/document-cache.js';
import { ContentPolicy } from './content.policy.js';
import { PASS } from './gate-policy.js';
import { aVisit } from './visit.fixture.js';

function documentsHolding(content: ServedDocument | null): { documents: DocumentCache; asked: string[] } {
  const asked: string[] = [];
  const documents = {
    get: async (versionId: string, kind: string) => {
      asked.push(`${versionId}:${kind}`);
      return content;
    },
  } as unknown as DocumentCache;
  return { documents, asked };
}

describe(ContentPolicy.name, () => {
  it('passes when the version can be shown', async () => {
    const { documents, asked } = documentsHolding({ bytes: Buffer.from('<p>x</p>'), doctypeLength: 0 });
    const sut = new ContentPolicy(documents);
    expect(await sut.check(aVisit({ share: { versionId: 'v1', fileKind: 'TEXT' } }))).toBe(PASS);
    expect(asked).toEqual(['v1:TEXT']);
  });

  it('stops before the visit is counted when the version is no longer CLEAN', async () => {
    const sut = new ContentPolicy(documentsHolding(null).documents);
    expect(await sut.check(aVisit())).toEqual({ kind: 'unavailable' });
  });

  it('stops when there is no version to show', async () => {
    const { documents, asked } = documentsHolding({ bytes: Buffer.alloc(0), doctypeLength: 0 });
    const sut = new ContentPolicy(documents);
    expect(await sut.check(aVisit({ share: { versionId: null } }))).toEqual({ kind: 'unavailable' });
    expect(asked).toEqual([]);
  });

  it("passes a collection's page, which is a list, without reading any content", async () => {
    const { documents, asked } = documentsHolding(null);
    const sut = new ContentPolicy(documents);
    const collection = { folderId: 'f1', fileId: null, fileKind: null, versionId: null };
    expect(await sut.check(aVisit({ share: collection }))).toBe(PASS);
    expect(asked).toEqual([]);
  });

  it("checks a collection's document like a file", async () => {
    const sut = new ContentPolicy(documentsHolding(null).documents);
    const document = { folderId: 'f1', fileId: 'd1', fileKind: 'TEXT' as const, versionId: 'v1' };
    expect(await sut.check(aVisit({ share: document }))).toEqual({ kind: 'unavailable' });
  });
});
