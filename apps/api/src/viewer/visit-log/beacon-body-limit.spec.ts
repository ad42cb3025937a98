import { Readable } from 'node:stream';
import fastifyFormBody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRouteErrorHandler } from '../../http/route-errors.js';
import { BEACON_PATH, limitBeaconBodies } from './beacon-body-limit.js';
import { MAX_BEACON_BYTES } from './visit-engagement.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A urlencoded body of exactly `bytes` bytes. */
const body = (bytes: number) => `v=x&pad=${'x'.repeat(bytes - 8)}`;

/** A body sent in small pieces with no Content-Length, as a chunked request's body arrives. */
const chunked = (text: string) => Readable.from(text.match(/[^]{1,50}/g)!.map((piece) => Buffer.from(piece)));

describe(limitBeaconBodies.name, () => {
  let app: FastifyInstance;
  const received: Array<Record<string, string>> = [];

  beforeAll(async () => {
    app = Fastify();
    registerRouteErrorHandler(app);
    limitBeaconBodies(app);
    // The service's form parser allows 64 KiB; the beacon's own limit must win over it.
    await app.register(fastifyFormBody, { bodyLimit: 64 * 1024 });
    app.post(BEACON_PATH, async (request, reply) => {
      received.push(request.body as Record<string, string>);
      return reply.status(204).send();
    });
    app.post('/s/other', async (request) => ({ bytes: JSON.stringify(request.body).length }));
    await app.ready();
  });
  afterAll(() => app?.close());

  it('refuses a chunked body longer than the limit, counting the bytes read, with the beacon’s bare 413', async () => {
    const before = received.length;
    const answer = await app.inject({ method: 'POST', url: BEACON_PATH, headers: FORM, payload: chunked(body(600)) });
    expect(answer.statusCode).toBe(413);
    expect(answer.body).toBe('');
    expect(answer.headers).toMatchObject({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    expect(received.length).toBe(before);
  });

  it('takes a chunked body up to the limit', async () => {
    for (const bytes of [100, MAX_BEACON_BYTES]) {
      const answer = await app.inject({ method: 'POST', url: BEACON_PATH, headers: FORM, payload: chunked(body(bytes)) });
      expect(answer.statusCode, `${bytes} bytes`).toBe(204);
    }
    const over = await app.inject({
      method: 'POST',
      url: BEACON_PATH,
      headers: FORM,
      payload: chunked(body(MAX_BEACON_BYTES + 1)),
    });
    expect(over.statusCode).toBe(413);
  });

  it('refuses an announced Content-Length over the limit', async () => {
    const answer = await app.inject({ method: 'POST', url: BEACON_PATH, headers: FORM, payload: body(600) });
    expect(answer.statusCode).toBe(413);
    expect(answer.body).toBe('');
  });

  it('leaves every other route its own limit and error envelope', async () => {
    const answer = await app.inject({ method: 'POST', url: '/s/other', headers: FORM, payload: chunked(body(4000)) });
    expect(answer.statusCode).toBe(200);
    const malformed = await app.inject({
      method: 'POST',
      url: BEACON_PATH,
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    // The beacon's other framework errors (here a body that does not parse) keep the envelope.
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: expect.any(String), code: 'VALIDATION' });
  });
});
