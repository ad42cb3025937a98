import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { acceptMultipart, isMultipart, multipartParts, type MultipartOptions } from './multipart.js';

const BOUNDARY = 'sharedown-boundary';
const upload = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

function body(...parts: Array<{ name: string; filename?: string; type?: string; value: string }>): string {
  const lines = parts.flatMap((part) => [
    `--${BOUNDARY}`,
    `Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`,
    ...(part.type ? [`Content-Type: ${part.type}`] : []),
    '',
    part.value,
  ]);
  return [...lines, `--${BOUNDARY}--`, ''].join('\r\n');
}

const notes = { name: 'file', filename: 'notes.md', type: 'text/markdown', value: '# Notes' };
const LIMITS: MultipartOptions = { limits: { fileSize: 16, files: 1, fields: 2, parts: 4 }, preservePath: true };

/** An app that accepts multipart bodies, a GET answering its response's 'close' listeners, and a route listing the parts. */
async function appWith(accept: boolean): Promise<{ app: FastifyInstance; hooks: string[] }> {
  const app = Fastify();
  const hooks: string[] = [];
  const addHook = app.addHook.bind(app);
  vi.spyOn(app, 'addHook').mockImplementation(((name: string, hook: never) => {
    hooks.push(name);
    return addHook(name as never, hook);
  }) as never);
  if (accept) acceptMultipart(app);
  app.get('/page', async (_request, reply) => ({ closeListeners: reply.raw.listenerCount('close') }));
  app.post('/parts', async (request) => {
    const seen: string[] = [];
    try {
      for await (const part of multipartParts(request, LIMITS)) {
        if (part.type === 'field') {
          seen.push(`${part.fieldname}=${JSON.stringify(part.value)}`);
          continue;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of part.file as AsyncIterable<Buffer>) chunks.push(chunk);
        seen.push(`${part.fieldname}:${part.filename}:${Buffer.concat(chunks).toString()}${part.file.truncated ? ' (cut)' : ''}`);
      }
    } catch (error) {
      const failure = error as { code?: string; statusCode?: number; message: string };
      return { multipart: isMultipart(request), seen, error: failure.code ?? failure.message, status: failure.statusCode };
    }
    return { multipart: isMultipart(request), seen };
  });
  await app.ready();
  return { app, hooks };
}

describe('acceptMultipart', () => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });
  async function started(accept = true) {
    const made = await appWith(accept);
    apps.push(made.app);
    return made;
  }

  it('adds no hook at all, so a request that is not an upload carries nothing of it', async () => {
    const ours = await started();
    const bare = await started(false);
    expect(ours.hooks).toEqual([]);
    const listeners = async (app: FastifyInstance) => (await app.inject({ url: '/page' })).json().closeListeners as number;
    expect(await listeners(ours.app)).toBe(await listeners(bare.app));
  });

  it('streams the parts in order, a JSON field parsed, the client name of the file kept whole', async () => {
    const { app } = await started();
    const payload = body(
      { name: 'folderId', value: 'abc' },
      { name: 'share', type: 'application/json', value: '{"expiresInDays":3}' },
      { ...notes, filename: 'a/b.md' },
    );
    const response = await app.inject({ method: 'POST', url: '/parts', headers: upload, payload });
    expect(response.json()).toEqual({
      multipart: true,
      seen: ['folderId="abc"', 'share={"expiresInDays":3}', 'file:a/b.md:# Notes'],
    });
  });

  it('is no multipart request without the content type, and an empty body is an empty form', async () => {
    const { app } = await started();
    const plain = await app.inject({ method: 'POST', url: '/parts', headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(plain.json()).toMatchObject({ multipart: false });
    const empty = await app.inject({ method: 'POST', url: '/parts', headers: upload, payload: '' });
    expect(empty.json()).toEqual({ multipart: true, seen: [] });
  });

  it("answers the limits with Fastify's multipart codes, after the parts before them", async () => {
    const { app } = await started();
    const post = async (payload: string) =>
      (await app.inject({ method: 'POST', url: '/parts', headers: upload, payload })).json();
    expect(await post(body({ ...notes, value: 'x'.repeat(40) }))).toEqual({
      multipart: true,
      seen: [`file:notes.md:${'x'.repeat(16)} (cut)`],
      error: 'FST_REQ_FILE_TOO_LARGE',
      status: 413,
    });
    expect(await post(body(notes, { ...notes, filename: 'two.md' }))).toMatchObject({
      seen: ['file:notes.md:# Notes'],
      error: 'FST_FILES_LIMIT',
      status: 413,
    });
    expect(await post(body({ name: 'a', value: '1' }, { name: 'b', value: '2' }, { name: 'c', value: '3' }))).toMatchObject({
      seen: ['a="1"', 'b="2"'],
      error: 'FST_FIELDS_LIMIT',
    });
    expect(await post(body({ name: '__proto__', value: '1' }))).toMatchObject({ error: 'FST_PROTO_VIOLATION', status: 400 });
    expect(await post(body({ name: 'share', type: 'application/json', value: '{"a":' }))).toMatchObject({
      error: 'FST_INVALID_JSON_FIELD_ERROR',
      status: 406,
    });
  });

  it('refuses a body without its boundary as malformed', async () => {
    const { app } = await started();
    const response = await app.inject({
      method: 'POST',
      url: '/parts',
      headers: { 'content-type': 'multipart/form-data' },
      payload: body(notes),
    });
    expect(response.json()).toMatchObject({ multipart: true, seen: [] });
    expect(response.json().error).toMatch(/boundary/i);
  });
});
