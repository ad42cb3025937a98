import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../common/runtime.js';
import { OidcClient } from './oidc-client.js';

/**
 * A provider that answers what each test tells it to: discovery, a token endpoint whose ID token
 * carries the claims set here, and UserInfo. Enough to prove the checks the real provider in the
 * e2e suites cannot be made to fail (a wrong nonce).
 */
describe(OidcClient.name, () => {
  let server: Server;
  let issuer: string;
  let idClaims: Record<string, unknown>;
  let userinfo: Record<string, unknown> | null;
  let tokenRequests: URLSearchParams[];

  const jwt = (payload: Record<string, unknown>) =>
    [{ alg: 'RS256', typ: 'JWT' }, payload].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') +
    '.c2ln';

  beforeAll(async () => {
    server = createServer((request, response) => {
      const send = (body: unknown) => response.setHeader('content-type', 'application/json').end(JSON.stringify(body));
      if (request.url === '/.well-known/openid-configuration') {
        return send({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/me`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
        });
      }
      if (request.url === '/token') {
        let body = '';
        request.on('data', (chunk) => (body += chunk));
        request.on('end', () => {
          tokenRequests.push(new URLSearchParams(body));
          const now = Math.floor(Date.now() / 1000);
          send({
            access_token: 'access',
            token_type: 'Bearer',
            id_token: jwt({ iss: issuer, aud: 'client', iat: now, exp: now + 60, sub: 'person-1', ...idClaims }),
          });
        });
        return;
      }
      if (request.url === '/me' && userinfo) return send({ sub: 'person-1', ...userinfo });
      response.statusCode = 404;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    userinfo = null;
    tokenRequests = [];
  });

  function sut(): OidcClient {
    const env = {
      PUBLIC_URL: 'http://share.test',
      OIDC_ISSUER_URL: issuer,
      OIDC_CLIENT_ID: 'client',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_SCOPES: 'openid email',
      ROLE: 'worker',
    };
    return new OidcClient({ env, sessionSecret: 's'.repeat(40) } as unknown as Runtime);
  }

  async function roundTrip(client: OidcClient, claims: (attempt: { nonce: string }) => Record<string, unknown>) {
    const { url, attempt } = await client.begin();
    idClaims = claims(attempt);
    const state = new URL(url).searchParams.get('state')!;
    return { url: new URL(url), attempt, finish: () => client.finish(`code=abc&state=${state}`, attempt) };
  }

  it('asks with PKCE (S256), state and nonce, and redeems the code with the verifier', async () => {
    const flow = await roundTrip(sut(), ({ nonce }) => ({ nonce, email: 'Ann@Corp.test', email_verified: true }));
    const challenge = createHash('sha256').update(flow.attempt.codeVerifier).digest('base64url');
    expect(Object.fromEntries(flow.url.searchParams)).toMatchObject({
      client_id: 'client',
      response_type: 'code',
      scope: 'openid email',
      redirect_uri: 'http://share.test/api/auth/oidc/callback',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: flow.attempt.state,
      nonce: flow.attempt.nonce,
    });
    expect(await flow.finish()).toEqual({ issuer, subject: 'person-1', email: 'Ann@Corp.test', emailVerified: true });
    expect(tokenRequests[0]!.get('code_verifier')).toBe(flow.attempt.codeVerifier);
  });

  it('refuses an ID token with another nonce', async () => {
    const flow = await roundTrip(sut(), () => ({ nonce: 'somebody-else', email: 'ann@corp.test', email_verified: true }));
    await expect(flow.finish()).rejects.toThrow();
  });

  it('refuses an answer for another attempt (state)', async () => {
    const client = sut();
    const flow = await roundTrip(client, ({ nonce }) => ({ nonce, email: 'ann@corp.test', email_verified: true }));
    await expect(client.finish('code=abc&state=forged', flow.attempt)).rejects.toThrow();
    expect(tokenRequests).toHaveLength(0);
  });

  it('reads the address and its verification from UserInfo when the ID token lacks them', async () => {
    userinfo = { email: 'bea@corp.test', email_verified: 'true' };
    const flow = await roundTrip(sut(), ({ nonce }) => ({ nonce }));
    expect(await flow.finish()).toMatchObject({ email: 'bea@corp.test', emailVerified: true });
  });

  it('treats a missing or false verification as unverified', async () => {
    const flow = await roundTrip(sut(), ({ nonce }) => ({ nonce, email: 'cy@corp.test', email_verified: false }));
    expect(await flow.finish()).toMatchObject({ email: 'cy@corp.test', emailVerified: false });
  });
});
