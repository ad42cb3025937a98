import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { clamdAvailable, startClamd, type Clamd } from '../support/clamd.js';
import { sleep } from '../support/outage-load.js';
import { uploadFile } from '../support/uploads.js';

const MARKER = 'scanned while clamd goes away';

/**
 * Between the service and clamd. While `holding`, clamd's verdicts are kept back and the
 * service's connections stay open, so a test can stop clamd with a scan under way; `cut()` then
 * drops them as clamd's going away would: to the service, clamd vanished in the middle of the
 * scan. A connection clamd refuses is dropped at once.
 */
class HoldingProxy {
  holding = true;
  received = '';
  private server: Server;
  private readonly clients = new Set<Socket>();

  constructor(target: Clamd) {
    // Half-open: the service ends its side once the document is sent, and waits for the verdict.
    this.server = createServer({ allowHalfOpen: true }, (client) => {
      this.clients.add(client);
      const upstream = createConnection(target.port, target.host);
      client.on('data', (chunk: Buffer) => {
        this.received += chunk.toString('latin1');
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (!this.holding) client.write(chunk);
      });
      upstream.on('end', () => {
        if (!this.holding) client.end();
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.on('end', () => upstream.end());
      client.on('close', () => (this.clients.delete(client), upstream.destroy()));
    });
  }

  cut(): void {
    for (const client of this.clients) client.destroy();
  }

  listen(): Promise<number> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as { port: number }).port)),
    );
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

// CI installs clamav-daemon (.ci/run); a machine without it cannot run this suite.
describe.runIf(clamdAvailable())('clamd lost in the middle of a scan', () => {
  let clamd: Clamd;
  let proxy: HoldingProxy;
  let app: RunningApp;
  let user: TestUser;

  beforeAll(async () => {
    clamd = await startClamd();
    proxy = new HoldingProxy(clamd);
    const port = await proxy.listen();
    app = await startApp({ env: { CLAMD_HOST: '127.0.0.1', CLAMD_PORT: String(port) } });
    user = await createUser(app.baseUrl);
  });
  afterAll(async () => {
    await app?.cleanup();
    await proxy?.close();
    await clamd?.cleanup();
  });

  async function statusOf(fileId: string): Promise<string> {
    const { data } = await user.console.GET('/api/console/files/{id}', { params: { path: { id: fileId } } });
    return data!.file.scanStatus;
  }

  it('marks the version SCAN_ERROR, never leaves it PENDING, and ends CLEAN once clamd is back', async () => {
    const { data } = await uploadFile(user.api, 'mid-scan.md', `# ${MARKER}\n`);
    const fileId = data!.file.id;
    // The document has reached clamd and its verdict is held: the scan is under way.
    await expect.poll(() => proxy.received.includes(MARKER), { timeout: 20_000 }).toBe(true);
    expect(await statusOf(fileId)).toBe('PENDING');
    await clamd.stop();
    proxy.cut();

    // Every status seen from now on, until the scan settles.
    const seen: string[] = [];
    const watch = async (until: (status: string) => boolean, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await statusOf(fileId);
        if (seen.at(-1) !== status) seen.push(status);
        if (until(status) || Date.now() > deadline) return status;
        await sleep(100);
      }
    };
    expect(await watch((status) => status === 'SCAN_ERROR', 30_000)).toBe('SCAN_ERROR');
    // Retried while clamd is still away: it stays SCAN_ERROR, it never falls back to PENDING.
    await watch(() => false, 3_000);
    expect(seen.at(-1)).toBe('SCAN_ERROR');

    proxy.holding = false;
    await clamd.start();
    expect(await watch((status) => status === 'CLEAN', 60_000)).toBe('CLEAN');
    expect(seen.filter((status) => status === 'PENDING').length).toBeLessThanOrEqual(1);
    expect(seen.slice(seen.indexOf('SCAN_ERROR'))).toEqual(['SCAN_ERROR', 'CLEAN']);
    expect(app.process.exitCode).toBeNull();
  }, 120_000);
});
