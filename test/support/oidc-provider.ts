import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './app.js';

/** A person at the provider, with the claims it releases for them. */
export interface ProviderAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The app's OIDC_* keys for this provider. */
  env: Record<string, string>;
  /** The account the next sign-in at the provider completes as (no login form: the test chooses). */
  signInAs(account: ProviderAccount): void;
  /** The next sign-in ends with the provider's `access_denied` error instead. */
  denyNext(): void;
  /** Codes redeemed at the token endpoint (successful exchanges). */
  redeemed(): number;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (`oidc-provider`) on a free 127.0.0.1 port: one confidential client
 * registered for the given callbacks, PKCE required, claims `email` and `email_verified` from an
 * account store the test controls. Login and consent complete at once for the account chosen by
 * `signInAs`; the provider's own session cookie then remembers that account, so use a fresh browser
 * context (or cookie jar) per person. `port` and `clientSecret` let a
 * test configure the app before the provider runs.
 */
export async function startOidcProvider(
  redirectUris: string[],
  options: { port?: number; clientSecret?: string } = {},
): Promise<TestOidcProvider> {
  const port = options.port ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'sharedown-test';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const accounts = new Map<string, ProviderAccount>();
  let nextAccount: ProviderAccount | null = null;
  let deny = false;
  let redeemed = 0;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: account.email_verified }),
      };
    },
  });
  provider.on('grant.success', () => redeemed++);
  // The provider's own warnings (development keys, Node version) are not the test's business.
  provider.on('server_error', (_ctx: unknown, error: Error) => console.error('oidc-provider server_error', error));

  const handle = provider.callback();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.startsWith('/interaction/')) {
      interact(request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
      return;
    }
    handle(request, response);
  });

  async function interact(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(request, response);
    if (deny) {
      deny = false;
      await provider.interactionFinished(request, response, { error: 'access_denied', error_description: 'refused by the test' });
      return;
    }
    if (details.prompt.name === 'login') {
      if (!nextAccount) throw new Error('signInAs() was not called before a sign-in at the test provider');
      accounts.set(nextAccount.sub, nextAccount);
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: nextAccount.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    // Consent: grant what the client asked for.
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    env: { OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret },
    signInAs(account) {
      nextAccount = account;
    },
    denyNext() {
      deny = true;
    },
    redeemed: () => redeemed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
