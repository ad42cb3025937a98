import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { followsWithin, OTHER_PROCESS_MS } from '../support/follows-within.js';
import { documentForm, sql, uploadFile, waitForScan } from '../support/uploads.js';

describe('which version a share serves', () => {
  let app: RunningApp;
  let user: TestUser;

  beforeAll(async () => {
    app = await startApp();
    user = await createUser(app.baseUrl);
  });
  afterAll(async () => app?.cleanup());

  async function addVersion(fileId: string, content: string): Promise<string> {
    const response = await fetch(`${app.baseUrl}/api/console/files/${fileId}/versions`, {
      method: 'POST',
      headers: { cookie: user.cookie },
      body: documentForm('doc.md', content),
    });
    expect(response.status).toBe(200);
    return (await response.json()).version.id;
  }

  it('serves the newest CLEAN version while a newer one is being scanned, and nothing once it is INFECTED', async () => {
    const uploaded = await uploadFile(user.api, 'doc.md', '# first edition', { share: '{}' });
    expect(uploaded.response.status).toBe(200);
    const { file, url } = uploaded.data as { file: { id: string }; url: string };
    await waitForScan(user.console, file.id, (status) => status === 'CLEAN');
    expect(await (await fetch(url)).text()).toContain('first edition');

    const second = await addVersion(file.id, '# second edition');
    await waitForScan(user.console, file.id, (status) => status === 'CLEAN');
    expect(await (await fetch(url)).text()).toContain('second edition');

    // A third version still in the scanner: the link keeps serving the second edition.
    const third = await addVersion(file.id, '# third edition');
    await waitForScan(user.console, file.id, (status) => status === 'CLEAN');
    // A statement of the test's own, as the scanner's worker would write it: the api follows it
    // through the change feed, within the second the contract allows another process's change.
    const databaseUrl = await app.databaseUrl();
    await sql(databaseUrl, `UPDATE file_versions SET scan_status = 'PENDING' WHERE id = $1`, [third]);
    await followsWithin(OTHER_PROCESS_MS, async () => {
      const during = await fetch(url);
      const page = await during.text();
      return during.status === 200 && page.includes('second edition') && !page.includes('third edition');
    });

    // The current version turns out infected: the whole file is quarantined.
    await sql(databaseUrl, `UPDATE file_versions SET scan_status = 'INFECTED', scan_result = 'Test.Sig' WHERE id = $1`, [third]);
    await followsWithin(OTHER_PROCESS_MS, async () => {
      const quarantined = await fetch(url);
      return quarantined.status === 410 && !(await quarantined.text()).includes('edition');
    });
    expect(second).not.toBe(third);
  });

  it('shows the scanning page when no version is CLEAN yet', async () => {
    const uploaded = await uploadFile(user.api, 'fresh.md', '# fresh', { share: '{}' });
    const { file, url } = uploaded.data as { file: { id: string }; url: string };
    await waitForScan(user.console, file.id, (status) => status === 'CLEAN');
    await sql(await app.databaseUrl(), `UPDATE file_versions SET scan_status = 'PENDING' WHERE file_id = $1`, [file.id]);
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect(await response.text()).not.toContain('# fresh');
  });
});
