import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../auth/auth-context.js';
import type { Runtime } from '../../common/runtime.js';
import type { SessionsService } from '../../auth/sessions/sessions.service.js';
import { CollectionPasses } from './collection-passes.js';
import { aRequest, aShare, aUser } from '../gate/policies/visit.fixture.js';
import type { ViewedShare } from '../share-view/share-view.repository.js';
import type { ViewerRequest } from '../visitor/viewer-answer.js';
import { ViewerIdentity } from '../visitor/viewer-identity.js';

const VISIT = '0190a0b0-0000-7000-8000-000000000001';
const LINK = '/s/alice/handbook';

/** Passes over a real ViewerIdentity whose sessions answer `signedIn` for any cookie. */
function setup(signedIn: () => AuthUser | null) {
  const sessions = {
    resolve: async (cookie: string | undefined) => (cookie ? { sessionId: 's1', user: signedIn() } : null),
    resolveRenderLogin: async (cookie: string | undefined) => (cookie ? signedIn() : null),
  } as unknown as SessionsService;
  const identity = new ViewerIdentity({ sessionSecret: 'p'.repeat(48) } as Runtime, sessions);
  return { sut: new CollectionPasses(identity), identity };
}

/** A request carrying the pass (and, when given, a sign-in cookie). */
function holding(pass: { name: string; value: string }, signIn: Record<string, string> = {}): ViewerRequest {
  return aRequest({ cookies: { [pass.name]: pass.value, ...signIn } });
}

const collection = (overrides: Partial<ViewedShare> = {}) => aShare({ fileId: null, folderId: 'folder-1', ...overrides });

describe(CollectionPasses.name, () => {
  it('opens the visit it was issued for, to the same visitor only, under the same rules', async () => {
    const { sut } = setup(() => null);
    const share = collection();
    const pass = sut.issue(share, VISIT, 'visitor-a', LINK, null);
    expect(await sut.visitOf(holding(pass), share, 'visitor-a')).toEqual({ visitId: VISIT, user: null });
    expect(await sut.visitOf(holding(pass), share, 'visitor-b')).toBeNull();
    expect(await sut.visitOf(holding(pass), { ...share, agreementSha256: 'a'.repeat(64) }, 'visitor-a')).toBeNull();
    expect(await sut.visitOf(holding({ ...pass, value: `${pass.value}x` }), share, 'visitor-a')).toBeNull();
  });

  it('is no pass once the password changes: it names the password version it was admitted under', async () => {
    const { sut } = setup(() => null);
    const share = collection({ hasPassword: true, passwordVersion: 2 });
    const pass = sut.issue(share, VISIT, 'visitor-a', LINK, null);
    expect(await sut.visitOf(holding(pass), share, 'visitor-a')).not.toBeNull();
    expect(await sut.visitOf(holding(pass), { ...share, passwordVersion: 3 }, 'visitor-a')).toBeNull();
    expect(await sut.visitOf(holding(pass), { ...share, hasPassword: false }, 'visitor-a')).toBeNull();
  });

  describe('rules that depend on the account', () => {
    const reader = aUser({ id: 'user-1', email: 'Reader@Example.com', emailVerified: true });

    it.each([
      ['sign-in', { requireLogin: true }],
      ['an allowlist', { requireLogin: true, emailAllowlist: ['reader@example.com'] }],
      ['a per-account cap', { requireLogin: true, perLoginUserMaxVisits: 2 }],
    ])('%s: re-checks the account on every request, and names it', async (_, rules) => {
      let now: AuthUser | null = reader;
      const { sut } = setup(() => now);
      const share = collection(rules);
      const pass = sut.issue(share, VISIT, 'visitor-a', LINK, reader);
      const signedIn = holding(pass, { sharedown_session: 'console' });
      expect(await sut.visitOf(signedIn, share, 'visitor-a')).toEqual({ visitId: VISIT, user: reader });
      // Signed in through the render host's own cookie instead: the same.
      expect(await sut.visitOf(holding(pass, { sd_login: 'render' }), share, 'visitor-a')).toEqual({
        visitId: VISIT,
        user: reader,
      });
      // Signed out (no cookie, or a session that no longer resolves: ended, or its account disabled).
      expect(await sut.visitOf(holding(pass), share, 'visitor-a')).toBeNull();
      now = null;
      expect(await sut.visitOf(signedIn, share, 'visitor-a')).toBeNull();
      // Another account signed in on the same browser is not the one admitted.
      now = aUser({ id: 'user-2', email: 'reader@example.com' });
      expect(await sut.visitOf(signedIn, share, 'visitor-a')).toBeNull();
    });

    it('an allowlist: an address changed since, or no longer proven, is no longer admitted', async () => {
      let now: AuthUser = reader;
      const { sut } = setup(() => now);
      const share = collection({ requireLogin: true, emailAllowlist: ['reader@example.com'] });
      const pass = sut.issue(share, VISIT, 'visitor-a', LINK, reader);
      const signedIn = holding(pass, { sharedown_session: 'console' });
      now = { ...reader, email: 'elsewhere@example.com' };
      expect(await sut.visitOf(signedIn, share, 'visitor-a')).toBeNull();
      now = { ...reader, emailVerified: false };
      expect(await sut.visitOf(signedIn, share, 'visitor-a')).toBeNull();
    });

    it('a pass issued without an account (the rules asked for none then) is no pass once they do', async () => {
      const { sut } = setup(() => reader);
      const open = collection();
      const pass = sut.issue(open, VISIT, 'visitor-a', LINK, null);
      const loginOnly = { ...open, requireLogin: true };
      expect(await sut.visitOf(holding(pass, { sharedown_session: 'console' }), loginOnly, 'visitor-a')).toBeNull();
    });
  });
});
