import { existsSync } from 'node:fs';
import { fastifyMultipart } from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { multipartForUploads } from './multipart.js';

const BOUNDARY = 'sharedown-boundary';
const upload = {
  'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
};
const uploadBody = [
  `--${BOUNDARY}`,
  'Content-Disposition: form-data; name="file"; filename="notes.md"',
  'Content-Type: text/markdown',
  '',
  '# Notes',
  `--${BOUNDARY}--`,
  '',
].join('\r\n');

/** An app with `plugin` registered, a GET answering how many 'close' listeners its response has, and two upload routes. */
async function appWith(plugin: unknown): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(plugin as never);
  app.get('/page', async (_request, reply) => ({ closeListeners: reply.raw.listenerCount('close') }));
  app.post('/stream', async (request) => {
    const names: string[] = [];
    for await (const part of request.parts()) {
      if (part.type === 'file') names.push(`${part.filename}:${(await part.toBuffer()).toString()}`);
    }
    return { names };
  });
  app.post('/save', async (request) => {
    const saved = (await request.saveRequestFiles()) as unknown as { files: Array<{ filepath: string }> };
    return { paths: saved.files.map((file) => file.filepath) };
  });
  await app.ready();
  return app;
}

describe('multipartForUploads', () => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  it('adds nothing to a request that is not multipart (the plain plugin adds a close listener to every response)', async () => {
    const ours = await appWith(multipartForUploads);
    const plain = await appWith(fp(fastifyMultipart));
    apps.push(ours, plain);
    const listeners = async (app: FastifyInstance) => (await app.inject({ url: '/page' })).json().closeListeners as number;
    expect((await listeners(plain)) - (await listeners(ours))).toBe(1);
  });

  it('still parses an upload streamed with request.parts()', async () => {
    const app = await appWith(multipartForUploads);
    apps.push(app);
    const response = await app.inject({ method: 'POST', url: '/stream', headers: upload, payload: uploadBody });
    expect(response.json()).toEqual({ names: ['notes.md:# Notes'] });
  });

  it("still removes a multipart request's saved temporary files once it is answered", async () => {
    const app = await appWith(multipartForUploads);
    apps.push(app);
    const response = await app.inject({ method: 'POST', url: '/save', headers: upload, payload: uploadBody });
    const [path] = response.json().paths as string[];
    expect(path).toBeTruthy();
    // The plugin removes them in its onResponse hook, after the answer has gone out.
    await vi.waitFor(() => expect(existsSync(path!)).toBe(false), { timeout: 5_000 });
  });
});
