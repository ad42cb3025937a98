import { Inject, Injectable, Logger } from '@nestjs/common';
import * as client from 'openid-client';
import { RUNTIME, type Runtime } from '../../common/runtime.js';

/** What Sharedown reads from a provider: who the person is there, and the address it vouches for. */
export interface OidcClaims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/** The secrets one sign-in attempt keeps in the browser between the redirect and the callback. */
export interface OidcAttempt {
  state: string;
  nonce: string;
  codeVerifier: string;
}

const DISCOVERY_TIMEOUT_SECONDS = 10;
// Provider metadata rarely changes, but a replica that runs for months should notice when it does.
const METADATA_MAX_AGE_MS = 24 * 3600 * 1000;

/**
 * The relying party: discovers OIDC_ISSUER_URL on first use (a failure is retried by the next
 * sign-in and never stops the service), sends the browser to the provider with PKCE (S256),
 * state and nonce, and trades the returned code for the person's claims.
 */
@Injectable()
export class OidcClient {
  private readonly logger = new Logger('OpenID');
  private discovered: { config: Promise<client.Configuration>; at: number } | null = null;
  readonly enabled: boolean;
  readonly redirectUri: string;

  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {
    const env = runtime.env;
    this.enabled = Boolean(env.OIDC_ISSUER_URL && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET);
    this.redirectUri = `${env.PUBLIC_URL}/api/auth/oidc/callback`;
    if (this.enabled && this.insecure && env.ROLE !== 'worker') {
      this.logger.warn(
        `OIDC_ISSUER_URL is plain http (${env.OIDC_ISSUER_URL}): codes, tokens and claims cross the network unencrypted. Use https outside a test setup.`,
      );
    }
  }

  /** An operator who configured an http issuer chose it explicitly; anything else must be https. */
  private get insecure(): boolean {
    return this.runtime.env.OIDC_ISSUER_URL?.startsWith('http:') ?? false;
  }

  /** The provider's authorization URL for a fresh attempt, and the attempt's secrets to keep. */
  async begin(): Promise<{ url: string; attempt: OidcAttempt }> {
    const config = await this.configuration();
    const attempt: OidcAttempt = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: this.runtime.env.OIDC_SCOPES,
      response_type: 'code',
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(attempt.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, attempt };
  }

  /**
   * Checks the provider's answer against the attempt (state, issuer, nonce), redeems the code with
   * the PKCE verifier, and reads the claims from the ID token, or from UserInfo when the ID token
   * lacks the address or its verification. Throws on anything wrong: a provider error, a replayed code, a bad nonce.
   */
  async finish(query: string, attempt: OidcAttempt): Promise<OidcClaims> {
    const config = await this.configuration();
    // The URL the provider redirected to, rebuilt from configuration: behind a proxy the request's own URL may differ.
    const currentUrl = new URL(`${this.redirectUri}?${query}`);
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: attempt.codeVerifier,
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims()!;
    let source: Record<string, unknown> = idToken;
    // Many providers put the address, or only its verification, in UserInfo; the pair is taken from one place.
    if ((idToken.email === undefined || idToken.email_verified === undefined) && config.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
      if (typeof info.email === 'string') source = info;
    }
    const email = typeof source.email === 'string' && source.email.length <= 254 ? source.email.trim() : null;
    return {
      issuer: idToken.iss,
      subject: idToken.sub,
      email: email || null,
      // Some providers send the flag as a string.
      emailVerified: email !== null && (source.email_verified === true || source.email_verified === 'true'),
    };
  }

  private configuration(): Promise<client.Configuration> {
    if (this.discovered && Date.now() - this.discovered.at < METADATA_MAX_AGE_MS) return this.discovered.config;
    const env = this.runtime.env;
    const config = client
      .discovery(new URL(env.OIDC_ISSUER_URL!), env.OIDC_CLIENT_ID!, undefined, undefined, {
        timeout: DISCOVERY_TIMEOUT_SECONDS,
        execute: this.insecure ? [client.allowInsecureRequests] : [],
      })
      .then((discovered) => {
        // The OpenID default is client_secret_basic; use the form post only for a provider that offers nothing else.
        const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
        const secret = env.OIDC_CLIENT_SECRET!;
        const auth =
          methods.includes('client_secret_basic') || !methods.includes('client_secret_post')
            ? client.ClientSecretBasic(secret)
            : client.ClientSecretPost(secret);
        const configured = new client.Configuration(discovered.serverMetadata(), env.OIDC_CLIENT_ID!, secret, auth);
        configured.timeout = DISCOVERY_TIMEOUT_SECONDS;
        if (this.insecure) client.allowInsecureRequests(configured);
        return configured;
      });
    this.discovered = { config, at: Date.now() };
    // A failed discovery is forgotten, so the next sign-in tries again.
    config.catch((error: unknown) => {
      if (this.discovered?.config === config) this.discovered = null;
      this.logger.warn(`discovery of ${env.OIDC_ISSUER_URL} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    return config;
  }
}
