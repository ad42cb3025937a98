import { describe, expect, it, vi } from 'vitest';
import { safeRedirect } from '../router';
import { leaveTo } from '../router/leave';
import { envelope, harness, mockApi, user } from './helpers';

vi.mock('../router/leave', () => ({ leaveTo: vi.fn() }));

describe('navigation guard', () => {
  it('sends a signed-out visitor to the login page and remembers where they were going', async () => {
    mockApi({ 'GET /api/auth/session': envelope(401, 'UNAUTHENTICATED', '未登录') });
    const { router } = harness();
    await router.push('/shares?status=active');
    expect(router.currentRoute.value.name).toBe('login');
    expect(router.currentRoute.value.query.redirect).toBe('/shares?status=active');
  });

  it('lets a signed-in user through and skips the login page', async () => {
    mockApi({ 'GET /api/auth/session': { status: 200, body: { user } } });
    const { router } = harness();
    await router.push('/tokens');
    expect(router.currentRoute.value.name).toBe('token-list');
    await router.push('/login?redirect=/webhooks');
    expect(router.currentRoute.value.name).toBe('webhook-list');
  });

  it('sends a signed-in visitor who came from a share link straight back to it', async () => {
    mockApi({ 'GET /api/auth/session': { status: 200, body: { user } } });
    const { router } = harness();
    await router.push('/login?redirect=/s/bob/q3-report');
    expect(leaveTo).toHaveBeenCalledWith('/s/bob/q3-report');
  });
});

describe('safeRedirect', () => {
  it.each([
    ['/files?folder=1', '/files?folder=1'],
    ['//evil.example/x', null],
    ['/\\evil.example', null],
    ['https://evil.example', null],
    ['/login?redirect=/x', null],
    [undefined, null],
  ])('%s → %s', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});
