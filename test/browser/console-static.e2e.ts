import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app.js';

const DIST = fileURLToPath(new URL('../../apps/console/dist/', import.meta.url));

describe('the api serves the built console', () => {
  let app: RunningApp;
  let bundle: string;

  beforeAll(async () => {
    app = await startApp();
    const assets = await readdir(`${DIST}assets`);
    bundle = assets.find((name) => /^index-.+\.js$/.test(name))!;
    expect(bundle, 'run "pnpm --filter @sharedown/console build" first').toBeDefined();
  });
  afterAll(() => app?.cleanup());

  it.each(['/', '/files', '/shares/4b7c1a2e-0000-4000-8000-000000000000', '/webhooks?tab=1'])(
    'answers the app shell for %s, never cached',
    async (path) => {
      const response = await fetch(`${app.baseUrl}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      expect(html).toContain('<div id="app"></div>');
      expect(html).toContain(`/assets/${bundle}`);
    },
  );

  it('serves fingerprinted bundles with a year-long immutable cache', async () => {
    const response = await fetch(`${app.baseUrl}/assets/${bundle}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await fetch(`${app.baseUrl}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it.each(['/assets/missing-bundle.js', '/api/nope', '/api', '/v1/nope', '/api/v1/nope', '/s/a/b/c', '/healthz/extra'])(
    'keeps the JSON 404 envelope for %s',
    async (path) => {
      const response = await fetch(`${app.baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({ error: '接口不存在', code: 'NOT_FOUND' });
    },
  );

  it('only falls back for reads: other methods on app paths stay 404 envelopes', async () => {
    const response = await fetch(`${app.baseUrl}/files`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
    const head = await fetch(`${app.baseUrl}/files`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('leaves the real API routes alone', async () => {
    const session = await fetch(`${app.baseUrl}/api/auth/session`);
    expect(session.status).toBe(401);
    expect(await session.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const health = await fetch(`${app.baseUrl}/healthz`);
    expect(((await health.json()) as { ok: boolean }).ok).toBe(true);
  });
});
