import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, createUser, startApp, type RunningApp } from '../support/app.js';
import { declaredNodeFloor, freshInstall } from '../support/fresh-install.js';

// Node.js prints every process warning (FSTWRN…, DeprecationWarning, ExperimentalWarning) so.
const PROCESS_WARNING = /\(node:\d+\) /;

describe('runtime', () => {
  // The install does not depend on the backend: checked once, on the embedded run.
  describe.skipIf(backend === 'services')('a fresh install', () => {
    it('prints no engine warning on the Node.js floor the project declares, on the 22 and 24 LTS floors, nor on this one', async () => {
      // The floors of the 22 and 24 lines the README names, set by TypeORM, Vite and ESLint.
      const versions = [...new Set([await declaredNodeFloor(), '22.13.0', '24.11.0', process.versions.node])];
      for (const version of versions) {
        const { status, output } = await freshInstall(version);
        expect(status, output).toBe(0);
        expect(output.split('\n').filter((line) => /unsupported engine/i.test(line))).toEqual([]);
      }
    }, 600_000);
  });

  describe('the service', () => {
    let app: RunningApp;

    beforeAll(async () => {
      app = await startApp();
    });
    afterAll(async () => app?.cleanup());

    it("answers Fastify's own errors inside a route with the envelope and its message", async () => {
      const badJson = await fetch(`${app.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email": ',
      });
      expect(badJson.status).toBe(400);
      expect(await badJson.json()).toEqual({ error: '请求体不是有效的 JSON', code: 'VALIDATION' });

      const unknownType = await fetch(`${app.baseUrl}/api/v1/files`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-unknown' },
        body: 'x',
      });
      expect(unknownType.status).toBe(400);
      expect(await unknownType.json()).toEqual({ error: '不支持的请求内容类型', code: 'VALIDATION' });
    });

    it('starts and serves without a process warning in its log', async () => {
      // Sessions, cookies and tokens load their modules on first use.
      const user = await createUser(app.baseUrl);
      expect((await user.api.GET('/v1/me')).response.status).toBe(200);
      expect((await fetch(`${app.baseUrl}/`)).status).toBe(200);
      expect(app.logs()).not.toMatch(PROCESS_WARNING);
      expect(app.logs()).not.toMatch(/FSTWRN|FastifyWarning|unsupported engine/i);
    });
  });
});
