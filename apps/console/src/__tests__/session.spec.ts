import { beforeEach, describe, expect, it } from 'vitest';
import { api, call, onUnauthenticated } from '../api/client';
import { useSessionStore } from '../stores/session';
import { envelope, harness, mockApi, settle, user } from './helpers';

describe('session store', () => {
  beforeEach(() => harness());

  it('loads the signed-in user once for concurrent callers', async () => {
    const { calls } = mockApi({ 'GET /api/auth/session': { status: 200, body: { user } } });
    const session = useSessionStore();
    await Promise.all([session.ensureLoaded(), session.ensureLoaded()]);
    expect(session.user).toEqual(user);
    expect(calls.filter((c) => c.path === '/api/auth/session')).toHaveLength(1);
  });

  it('treats 401 as signed out, without raising the expiry signal', async () => {
    mockApi({ 'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录或会话已过期') });
    let signalled = false;
    const stop = onUnauthenticated(() => (signalled = true));
    const session = useSessionStore();
    await session.ensureLoaded();
    stop();
    expect(session.signedIn).toBe(false);
    expect(session.loaded).toBe(true);
    expect(signalled).toBe(false);
  });

  it('leaves the session unknown when the API cannot be reached, so the next navigation asks again', async () => {
    const { fetchMock } = mockApi({});
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const session = useSessionStore();
    await expect(session.ensureLoaded()).rejects.toMatchObject({ code: 'NETWORK' });
    expect(session.loaded).toBe(false);
  });

  it('logs in with the credentials and keeps the user', async () => {
    const { calls } = mockApi({ 'POST /api/auth/login': { status: 200, body: { user } } });
    const session = useSessionStore();
    await session.login('alice@example.com', 'correct horse');
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/auth/login',
      body: { email: 'alice@example.com', password: 'correct horse' },
    });
    expect(session.user?.segment).toBe('alice');
  });

  it('reports a wrong password as the API error, not as an expired session', async () => {
    mockApi({ 'POST /api/auth/login': envelope(401, 'UNAUTHENTICATED', '邮箱或密码错误') });
    let signalled = false;
    const stop = onUnauthenticated(() => (signalled = true));
    await expect(useSessionStore().login('a@b.co', 'nope')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    stop();
    expect(signalled).toBe(false);
  });

  it('signals expiry when a console call answers 401, and marks the session expired', async () => {
    mockApi({
      'GET /api/auth/session': { status: 200, body: { user } },
      'GET /api/tokens': envelope(401, 'UNAUTHENTICATED', '未登录或会话已过期'),
    });
    const session = useSessionStore();
    await session.ensureLoaded();
    const stop = onUnauthenticated(() => session.markExpired());
    await expect(call(api().GET('/api/tokens'))).rejects.toMatchObject({ status: 401 });
    stop();
    expect(session.user).toBeNull();
    expect(session.expired).toBe(true);
  });

  it('changes the owner segment', async () => {
    const { calls } = mockApi({
      'PATCH /api/console/account': ({ body }) => ({ status: 200, body: { user: { ...user, ...(body as object) } } }),
    });
    const session = useSessionStore();
    await session.updateSegment('alice-docs');
    await settle();
    expect(calls[0]!.body).toEqual({ segment: 'alice-docs' });
    expect(session.user?.segment).toBe('alice-docs');
  });
});
