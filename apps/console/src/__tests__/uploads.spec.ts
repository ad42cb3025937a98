// @vitest-environment node
// The store in Node's environment, not jsdom's: its File and FormData then come from the same place
// as the Request that carries them, as in a browser. Under jsdom, Node 24's fetch sends a jsdom
// File's bytes as an empty part, and cannot parse a multipart body back into FormData.
import { LIMITS } from '@sharedown/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { resetApiClient } from '../api/client';
import { localProblem, useUploadsStore } from '../stores/uploads';
import { settle } from './helpers';

type Answer = { status: number; body: unknown };
const answers: Answer[] = [];
const sent: { url: string; progress: (loaded: number, total: number) => void; form: FormData }[] = [];

// The XHR transport is swapped for a scripted one; the store, the typed client and unwrap run for real.
vi.mock('../api/xhr-fetch', () => ({
  xhrFetch: (onProgress: (loaded: number, total: number) => void) => async (request: Request) => {
    sent.push({ url: request.url, progress: onProgress, form: await request.formData() });
    onProgress(5, 10);
    const answer = answers.shift() ?? { status: 500, body: { error: '服务器内部错误', code: 'INTERNAL' } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  },
}));

const consoleFile = (name: string) => ({
  id: `id-${name}`,
  name,
  kind: 'MARKDOWN',
  sizeBytes: 5,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  folderId: null,
  shareCount: 0,
  scanStatus: 'PENDING',
  scanResult: null,
  currentVersionId: 'v',
  versionNo: 1,
});
const duplicate: Answer = { status: 409, body: { error: '同一文件夹中已存在同名文件', code: 'DUPLICATE' } };

function file(name: string, size = 5): File {
  return new File(['x'.repeat(size)], name, { type: 'text/markdown' });
}

describe('uploads store', () => {
  beforeEach(() => {
    // The console's client talks to the page's origin; here there is no page, only its address.
    vi.stubGlobal('window', { location: { origin: 'http://console.test' } });
    setActivePinia(createPinia());
    resetApiClient();
    answers.length = 0;
    sent.length = 0;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('refuses other extensions and oversized files before sending anything', () => {
    expect(localProblem(file('movie.mp4'))).toBe('upload.errExtension');
    expect(localProblem(file('archive.zip'))).toBe('upload.errExtension');
    expect(localProblem(new File([new Uint8Array(LIMITS.uploadBytes + 1)], 'big.md'))).toBe('upload.errTooLarge');
    expect(localProblem(new File([new Uint8Array(LIMITS.uploadBytes)], 'big.md'))).toBeNull();
    expect(localProblem(file('README.MD'))).toBeNull();
    const uploads = useUploadsStore();
    uploads.enqueue([file('movie.mp4')]);
    expect(uploads.items[0]).toMatchObject({ status: 'failed', localError: 'upload.errExtension' });
    expect(sent).toHaveLength(0);
  });

  it('uploads, tracks progress and counts what landed', async () => {
    answers.push({ status: 200, body: { file: consoleFile('a.md'), outcome: 'created' } });
    const uploads = useUploadsStore();
    uploads.enqueue([file('a.md')], { folderId: 'f1' });
    await settle();
    expect(uploads.items[0]).toMatchObject({ status: 'done', outcome: 'created', loaded: 5 });
    expect(uploads.landed).toBe(1);
    expect(sent[0]!.url).toMatch(/\/api\/console\/files$/);
  });

  it('sends the file, its folder and the conflict mode as multipart fields', async () => {
    answers.push({ status: 200, body: { file: consoleFile('a.md'), outcome: 'created' } });
    useUploadsStore().enqueue([file('a.md')], { folderId: 'f1' });
    await settle();
    const form = sent[0]!.form;
    expect([...form.keys()]).toEqual(['file', 'folderId', 'conflict']);
    expect(await (form.get('file') as File).text()).toBe('xxxxx');
    expect((form.get('file') as File).name).toBe('a.md');
    expect(form.get('folderId')).toBe('f1');
    expect(form.get('conflict')).toBe('fail');
  });

  it('sends only the file for a new version', async () => {
    answers.push({ status: 200, body: { file: consoleFile('a.md') } });
    useUploadsStore().enqueue([file('a.md')], { folderId: 'f1', versionOf: 'id-a.md' });
    await settle();
    expect(sent[0]!.url).toMatch(/\/api\/console\/files\/id-a\.md\/versions$/);
    expect([...sent[0]!.form.keys()]).toEqual(['file']);
  });

  it('asks about a name conflict and retries with the chosen mode', async () => {
    answers.push(duplicate, { status: 200, body: { file: consoleFile('a (1).md'), outcome: 'renamed' } });
    const uploads = useUploadsStore();
    const [id] = uploads.enqueue([file('a.md')]);
    await settle();
    expect(uploads.conflict?.id).toBe(id);
    uploads.resolveConflict(id!, 'rename');
    expect(uploads.items[0]!.mode).toBe('rename');
    await settle();
    expect(uploads.items[0]).toMatchObject({ status: 'done', outcome: 'renamed' });
    expect(uploads.conflict).toBeNull();
  });

  it('applies one answer to every conflict of the same drop', async () => {
    answers.push(
      duplicate,
      duplicate,
      { status: 200, body: { file: consoleFile('a.md'), outcome: 'overwritten' } },
      { status: 200, body: { file: consoleFile('b.md'), outcome: 'overwritten' } },
    );
    const uploads = useUploadsStore();
    const [first] = uploads.enqueue([file('a.md'), file('b.md')]);
    await settle();
    expect(uploads.items.filter((item) => item.status === 'conflict')).toHaveLength(2);
    uploads.resolveConflict(first!, 'overwrite', true);
    await settle();
    expect(uploads.items.map((item) => [item.mode, item.status])).toEqual([
      ['overwrite', 'done'],
      ['overwrite', 'done'],
    ]);
  });

  it('skips a file when the user cancels, and keeps API failures retryable', async () => {
    answers.push(duplicate, { status: 413, body: { error: '存储配额已用尽', code: 'OVER_QUOTA' } });
    const uploads = useUploadsStore();
    const [a, b] = uploads.enqueue([file('a.md'), file('b.md')]);
    await settle();
    uploads.resolveConflict(a!, 'skip');
    expect(uploads.items.find((item) => item.id === a)!.status).toBe('skipped');
    const failed = uploads.items.find((item) => item.id === b)!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'OVER_QUOTA' });
    answers.push({ status: 200, body: { file: consoleFile('b.md'), outcome: 'created' } });
    uploads.retry(b!);
    await settle();
    expect(uploads.items.find((item) => item.id === b)!.status).toBe('done');
    uploads.clearFinished();
    expect(uploads.items).toHaveLength(0);
  });

  it('sends a new version to the versions route', async () => {
    answers.push({ status: 200, body: { file: consoleFile('a.md'), version: {} } });
    const uploads = useUploadsStore();
    uploads.enqueue([file('notes.txt')], { versionOf: 'file-9' });
    await settle();
    expect(sent[0]!.url).toMatch(/\/api\/console\/files\/file-9\/versions$/);
    expect(uploads.items[0]).toMatchObject({ status: 'done', outcome: 'version' });
  });
});
