import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { uploadFile } from '../support/uploads.js';

describe('upload errors on a full account', () => {
  let app: RunningApp;
  let user: TestUser;

  beforeAll(async () => {
    app = await startApp({ env: { DEFAULT_QUOTA_BYTES: '100' } });
    user = await createUser(app.baseUrl);
  });
  afterAll(async () => app?.cleanup());

  it('reports a duplicate name as DUPLICATE, and only a new name as OVER_QUOTA', async () => {
    const body = 'x'.repeat(80);
    expect((await uploadFile(user.api, 'full.md', body)).response.status).toBe(200);
    const again = await uploadFile(user.api, 'full.md', body);
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ code: 'DUPLICATE' });
    const other = await uploadFile(user.api, 'other.md', body);
    expect(other.response.status).toBe(413);
    expect(other.error).toMatchObject({ code: 'OVER_QUOTA' });
    const me = await (await fetch(`${app.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${user.token}` } })).json();
    expect(me.user.usedBytes).toBe(80);
  });
});
