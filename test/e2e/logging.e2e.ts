import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unwrap } from '@sharedown/contract';
import { createUser, sessionCookieOf, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { shareMarkdown } from '../support/webhook-receiver.js';

interface LogLine {
  level: string;
  msg: string;
  context?: string;
  reqId?: string;
  route?: string;
  status?: number;
  durationMs?: number;
}

/**
 * A user's whole day through one process: sign-up, sign-in, a token, a password-protected link
 * with a slug, wrong and right passwords posted to it. Answers every secret that went over the wire.
 */
async function useEverything(app: RunningApp): Promise<{ user: TestUser; secrets: string[] }> {
  const user = await createUser(app.baseUrl);
  const signIn = await fetch(`${app.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.baseUrl },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(signIn.status).toBe(200);
  const secondCookie = sessionCookieOf(signIn);
  const doc = await shareMarkdown(app.baseUrl, user, 'logged.md');
  const slug = `secret-slug-${Date.now()}`;
  const sharePassword = 'share password in a form';
  const protectedShare = await unwrap(
    user.api.POST('/api/v1/shares', { body: { fileId: doc.fileId, password: sharePassword, slug } }),
  );
  for (const password of ['a wrong guess at it', sharePassword]) {
    await fetch(protectedShare.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(protectedShare.url).origin },
      body: new URLSearchParams({ password }).toString(),
    });
  }
  await fetch(`${doc.url}?utm_source=secret-query-value`);
  const wrong = await fetch(`${app.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.baseUrl },
    body: JSON.stringify({ email: user.email, password: 'wrong password attempt' }),
  });
  expect(wrong.status).toBe(401);
  return {
    user,
    secrets: [
      user.password,
      user.token,
      user.cookie.split('=')[1]!,
      secondCookie.split('=')[1]!,
      doc.token,
      slug,
      sharePassword,
      'a wrong guess at it',
      'wrong password attempt',
      'secret-query-value',
    ],
  };
}

describe('logs', () => {
  let json: RunningApp;
  let text: RunningApp;

  beforeAll(async () => {
    [json, text] = await Promise.all([
      startApp({ env: { LOG_FORMAT: 'json', LOG_LEVEL: 'info' } }),
      startApp({ env: { NODE_ENV: 'production', LOG_FORMAT: 'text', LOG_LEVEL: 'info' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([json?.cleanup(), text?.cleanup()]);
  });

  it('LOG_FORMAT=json: one JSON object per line, every request with id, route, status and duration, no secret anywhere', async () => {
    const { secrets } = await useEverything(json);
    // A request's line is written once its answer is sent: the last one may still be on its way.
    await vi.waitFor(() => expect(json.logs()).toMatch(/"route":"\/api\/auth\/login","status":401/));
    const output = json.logs();
    const lines = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogLine);
    expect(lines.find((line) => line.msg.startsWith('Sharedown is running'))).toMatchObject({
      level: 'info',
      context: 'Sharedown',
    });
    const requests = lines.filter((line) => line.context === 'HTTP');
    for (const request of requests) {
      expect(request).toMatchObject({ msg: 'request', level: 'info' });
      expect(request.reqId).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof request.durationMs).toBe('number');
      expect(typeof request.status).toBe('number');
    }
    const routes = requests.map((request) => `${request.status} ${request.route}`);
    expect(routes).toContain('200 /api/auth/login');
    expect(routes).toContain('401 /api/auth/login');
    expect(routes).toContain('200 /api/v1/shares');
    expect(routes).toContain('200 /s/:segment/:token');
    expect(routes.filter((route) => route.endsWith(' /s/:segment/:token')).length).toBeGreaterThanOrEqual(3);
    for (const secret of secrets) expect(output, secret).not.toContain(secret);
  });

  it('LOG_FORMAT=text wins over NODE_ENV=production: readable lines, no secret either', async () => {
    const { secrets } = await useEverything(text);
    await vi.waitFor(() => expect(text.logs()).toMatch(/POST \/api\/auth\/login 401/));
    const output = text.logs();
    expect(output).toMatch(/POST \/api\/auth\/login 200 [\d.]+ ms \(request [0-9a-f-]{36}\)/);
    expect(output).toMatch(/GET \/s\/:segment\/:token 200 [\d.]+ ms/);
    expect(() => JSON.parse(output.trim().split('\n')[0]!)).toThrow();
    for (const secret of secrets) expect(output, secret).not.toContain(secret);
  });
});
