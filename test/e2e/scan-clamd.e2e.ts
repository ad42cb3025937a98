import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedownClient } from '@sharedown/contract';
import { rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { backend, createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { CUSTOM_TEST_SIGNATURE, EICAR, clamdAvailable, startClamd, type Clamd } from '../support/clamd.js';
import { sql, uploadFile, waitForScan } from '../support/uploads.js';

// CI installs clamav-daemon (.ci/run); a machine without it cannot run this suite.
describe.runIf(clamdAvailable())('antivirus scanning with a real clamd', () => {
  let clamd: Clamd;
  let app: RunningApp;
  let user: TestUser;

  beforeAll(async () => {
    clamd = await startClamd();
    app = await startApp({ env: { CLAMD_HOST: clamd.host, CLAMD_PORT: String(clamd.port) } });
    user = await createUser(app.baseUrl);
  });

  afterAll(async () => {
    await app?.cleanup();
    // A restarted app reuses its data dir, which cleanup() then leaves in place.
    if (app) await rm(app.dataDir, { recursive: true, force: true });
    await clamd?.cleanup();
  });

  it('passes clean documents', async () => {
    const { data } = await uploadFile(user.api, 'clean.html', '<!DOCTYPE html><html><body><p>hello</p></body></html>');
    expect(await waitForScan(user.console, data!.file.id)).toMatchObject({ scanStatus: 'CLEAN', scanResult: null });
  });

  it('quarantines EICAR with the signature clamd reports', async () => {
    const { data } = await uploadFile(user.api, 'eicar.md', `# test\n\n${EICAR}\n`);
    const scanned = await waitForScan(user.console, data!.file.id);
    expect(scanned.scanStatus).toBe('INFECTED');
    expect(scanned.scanResult).toMatch(/^Eicar-Test-Signature/);
    const over = await uploadFile(user.api, 'eicar.md', 'clean now');
    expect(over.response.status).toBe(409);
    expect(over.error).toMatchObject({ code: 'INFECTED' });
  });

  it('finds the custom test signature, in plain text and inside an HTML document', async () => {
    const text = await uploadFile(user.api, 'custom.txt', `prefix ${CUSTOM_TEST_SIGNATURE} suffix`);
    const html = await uploadFile(user.api, 'custom.html', `<html><body><p>${CUSTOM_TEST_SIGNATURE}</p></body></html>`);
    for (const id of [text.data!.file.id, html.data!.file.id]) {
      const scanned = await waitForScan(user.console, id);
      expect(scanned.scanStatus).toBe('INFECTED');
      expect(scanned.scanResult).toMatch(/^Sharedown-Test-Signature/);
    }
  });

  it('marks SCAN_ERROR while clamd is down and rescans once it is back', async () => {
    await clamd.stop();
    const { data } = await uploadFile(user.api, 'during-outage.md', 'written while clamd is down');
    const failed = await waitForScan(user.console, data!.file.id, (status) => status === 'SCAN_ERROR', 20_000);
    expect(failed.scanStatus).toBe('SCAN_ERROR');
    await clamd.start();
    const recovered = await waitForScan(user.console, data!.file.id, (status) => status === 'CLEAN', 45_000);
    expect(recovered.scanStatus).toBe('CLEAN');
  }, 90_000);

  it('picks up a scan whose job was lost when the worker starts again', async () => {
    const databaseUrl = await app.databaseUrl();
    const [{ id: fileId }] = await sql<{ id: string }>(
      databaseUrl,
      `WITH f AS (
         INSERT INTO files (user_id, name, kind, current_version_id, created_at)
         VALUES ($1, 'orphan.txt', 'TEXT', gen_random_uuid(), now() - interval '5 minutes') RETURNING id, current_version_id)
       INSERT INTO file_versions (id, file_id, version_no, content, size_bytes, sha256, created_at)
       SELECT current_version_id, id, 1, 'lost job', 8, 'x', now() - interval '5 minutes' FROM f RETURNING file_id AS id`,
      [user.userId],
    );
    await sql(databaseUrl, `UPDATE users SET used_bytes = used_bytes + 8 WHERE id = $1`, [user.userId]);
    await app.stop();
    // Same database (and queue), a fresh port.
    const { PORT: _port, ...env } = app.env;
    app = await startApp({ dataDir: app.dataDir, env });
    const consoleClient = createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie: user.cookie } });
    expect(await waitForScan(consoleClient, fileId, (status) => status === 'CLEAN', 30_000)).toMatchObject({
      scanStatus: 'CLEAN',
    });
  }, 90_000);
});

// SIGKILL leaves an embedded PostgreSQL orphaned on its data dir, so this runs on the machine's services.
describe.runIf(clamdAvailable() && backend === 'services')('a worker killed in the middle of a scan', () => {
  let clamd: Clamd;
  let hung: Server;
  const hungSockets = new Set<Socket>();
  let hungReceived = '';
  let app: RunningApp | undefined;

  beforeAll(async () => {
    clamd = await startClamd();
    // Accepts the scan and never answers: the job stays active until its worker dies.
    hung = createServer({ allowHalfOpen: true }, (socket) => {
      hungSockets.add(socket);
      socket.on('data', (chunk: Buffer) => (hungReceived += chunk.toString('latin1')));
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await app?.cleanup();
    if (app) await rm(app.dataDir, { recursive: true, force: true });
    for (const socket of hungSockets) socket.destroy();
    await new Promise((resolve) => hung.close(resolve));
    await clamd?.cleanup();
  });

  it('gets the scan done by the next worker', async () => {
    const hungPort = (hung.address() as { port: number }).port;
    const first = await startApp({ env: { CLAMD_HOST: '127.0.0.1', CLAMD_PORT: String(hungPort) } });
    const user = await createUser(first.baseUrl);
    const { data } = await uploadFile(user.api, 'interrupted.md', 'scanned when the worker died');
    // The worker has sent the document to the scanner, which holds it: the scan is under way.
    await expect.poll(() => hungReceived.includes('scanned when the worker died'), { timeout: 20_000 }).toBe(true);
    const during = await user.console.GET('/api/console/files/{id}', { params: { path: { id: data!.file.id } } });
    expect(during.data!.file.scanStatus).toBe('PENDING');
    await first.stop('SIGKILL');

    const { PORT: _port, ...env } = first.env;
    app = await startApp({ dataDir: first.dataDir, env: { ...env, CLAMD_PORT: String(clamd.port) } });
    const consoleClient = createSharedownClient({ baseUrl: app.baseUrl, headers: { cookie: user.cookie } });
    const started = Date.now();
    expect(await waitForScan(consoleClient, data!.file.id, (status) => status === 'CLEAN', 100_000)).toMatchObject({
      scanStatus: 'CLEAN',
    });
    console.log(`scan recovered ${Date.now() - started} ms after the new worker started`);
  }, 150_000);
});
