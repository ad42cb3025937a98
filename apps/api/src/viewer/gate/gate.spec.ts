import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../auth/auth-context.js';
import { RateLimiter, type RateDecision } from '../../rate-limit/rate-limiter.js';
import type { DocumentCache } from '../documents/document-cache.js';
import { GATE_POLICIES, ViewerGate } from './gate.js';
import type { AgreementAcceptancesRepository } from './agreement-acceptances.repository.js';
import { AgreementPolicy } from './policies/agreement.policy.js';
import { AllowlistPolicy } from './policies/allowlist.policy.js';
import { CapsPolicy } from './policies/caps.policy.js';
import { ContentPolicy } from './policies/content.policy.js';
import { FormOriginPolicy } from './policies/form-origin.policy.js';
import { PASS, type GatePolicy, type GateStep, type Visit } from './policies/gate-policy.js';
import { LinkPreviewPolicy } from './policies/link-preview.policy.js';
import { LoginPolicy } from './policies/login.policy.js';
import { OneSessionPolicy } from './policies/one-session.policy.js';
import { PasswordPolicy } from './policies/password.policy.js';
import { RevealPolicy } from './policies/reveal.policy.js';
import { ScanStatusPolicy } from './policies/scan-status.policy.js';
import { StatePolicy } from './policies/state.policy.js';
import { aUser, aVisit } from './policies/visit.fixture.js';
import type { ShareViewRepository, VisitRequest } from '../share-view/share-view.repository.js';
import { Signer } from '../visitor/signer.js';
import type { ViewerIdentity } from '../visitor/viewer-identity.js';
import type { VisitAdmissions } from '../visit-log/visit-admissions.js';

class OpenLimiter extends RateLimiter {
  async consume(): Promise<RateDecision> {
    return { allowed: true, remaining: 1, retryAfterSeconds: 0 };
  }
  async refund(): Promise<void> {}
  async sweep(): Promise<number> {
    return 0;
  }
}

/** The real policies, in GATE_POLICIES' order, around a signed-in user (or none) and a counting database. */
function realGate(user: AuthUser | null) {
  const admitted: VisitRequest[] = [];
  const identity = {
    user: async () => user,
    browserKey: () => ({ key: 'this-browser', cookie: null }),
    hasAccess: () => false,
    accessCookie: () => ({ name: 'access', value: 'x' }),
    visitorId: (key: string) => `id-${key}`,
    isBrowserBound: (key: string) => key.startsWith('b'),
    browserBoundVisitor: () => ({ key: 'bnew', cookie: { name: 'sd_visitor', value: 'signed-bnew', maxAge: 1 } }),
    agreementForms: new Signer('s'.repeat(40), 'agreement-form'),
  } as unknown as ViewerIdentity;
  const acceptances = {
    accepted: async () => null,
    text: async () => 'Terms',
  } as unknown as AgreementAcceptancesRepository;
  const documents = { get: async () => ({ bytes: Buffer.from('<p>x</p>'), doctypeLength: 0 }) } as unknown as DocumentCache;
  const admissions = {
    admit: async (_: string, visit: VisitRequest) => {
      admitted.push(visit);
      return { outcome: 'ADMITTED', visitCount: 1, uniqueVisitCount: 1 };
    },
  } as unknown as VisitAdmissions;
  const repository = { passwordHash: async () => null } as unknown as ShareViewRepository;
  const instances = new Map<unknown, GatePolicy>([
    [StatePolicy, new StatePolicy()],
    [ScanStatusPolicy, new ScanStatusPolicy()],
    [LinkPreviewPolicy, new LinkPreviewPolicy()],
    [FormOriginPolicy, new FormOriginPolicy()],
    [LoginPolicy, new LoginPolicy(identity)],
    [AllowlistPolicy, new AllowlistPolicy()],
    [OneSessionPolicy, new OneSessionPolicy(identity)],
    [PasswordPolicy, new PasswordPolicy(identity, new OpenLimiter(), repository)],
    [AgreementPolicy, new AgreementPolicy(identity, acceptances, new OpenLimiter())],
    [RevealPolicy, new RevealPolicy()],
    [ContentPolicy, new ContentPolicy(documents)],
    [CapsPolicy, new CapsPolicy(admissions)],
  ]);
  const sut = new ViewerGate(GATE_POLICIES.map((policy) => instances.get(policy)!));
  return { sut, admitted };
}

describe(ViewerGate.name, () => {
  it('asks every policy in order and stops at the first that does not pass', async () => {
    const asked: string[] = [];
    const policy = (name: string, step: GateStep): GatePolicy => ({
      check: async () => {
        asked.push(name);
        return step;
      },
    });
    const sut = new ViewerGate([policy('a', PASS), policy('b', { kind: 'reveal' }), policy('c', PASS)]);
    expect(await sut.pass(aVisit())).toEqual({ kind: 'reveal' });
    expect(asked).toEqual(['a', 'b']);
    expect(await new ViewerGate([policy('d', PASS)]).pass(aVisit())).toBeNull();
  });

  it('admits a share that asks nothing, with who the gate found visiting', async () => {
    const { sut, admitted } = realGate(null);
    const visit: Visit = aVisit();
    expect(await sut.pass(visit)).toBeNull();
    expect(visit.admission).toEqual({ outcome: 'ADMITTED', visitCount: 1, uniqueVisitCount: 1 });
    expect(admitted).toEqual([{ visitorKey: 'visitor-key', userId: null, browserKey: null }]);
  });

  it.each<[string, Parameters<typeof aVisit>[0], AuthUser | null, GateStep]>([
    [
      'a gone share before its scan state',
      { share: { revoked: true, scanStatus: 'PENDING' } },
      null,
      { kind: 'refused', outcome: 'REVOKED' },
    ],
    [
      'the scan state before a preview learns the link exists',
      { share: { scanStatus: 'INFECTED' }, request: { method: 'HEAD' } },
      null,
      { kind: 'quarantined' },
    ],
    ['HEAD before sign-in', { share: { requireLogin: true }, request: { method: 'HEAD' } }, null, { kind: 'link-exists' }],
    [
      'a foreign form before sign-in',
      { share: { requireLogin: true }, request: { method: 'POST', sameOrigin: false } },
      null,
      { kind: 'foreign-form' },
    ],
    ['sign-in before the password', { share: { requireLogin: true, hasPassword: true } }, null, { kind: 'sign-in' }],
    [
      'an unproven address before the one-session rule',
      { share: { requireLogin: true, emailAllowlist: ['reader@example.com'], oneSession: true, sessionOwner: 'other' } },
      aUser({ emailVerified: false }),
      { kind: 'unverified', user: aUser({ emailVerified: false }) },
    ],
    [
      'the one-session rule before the password',
      { share: { oneSession: true, sessionOwner: 'other', hasPassword: true } },
      null,
      { kind: 'refused', outcome: 'SESSION_TAKEN' },
    ],
    [
      'the password before the reveal step',
      { share: { hasPassword: true, oneTime: true } },
      null,
      { kind: 'password', wrong: false },
    ],
    [
      'the password before the agreement',
      { share: { hasPassword: true, agreementSha256: 'a'.repeat(64) } },
      null,
      { kind: 'password', wrong: false },
    ],
    [
      'the agreement before the reveal step',
      { share: { oneTime: true, agreementSha256: 'a'.repeat(64) } },
      null,
      expect.objectContaining({ kind: 'agreement', problem: null }) as GateStep,
    ],
  ])('puts %s', async (_, parts, user, stop) => {
    const { sut, admitted } = realGate(user);
    expect(await sut.pass(aVisit(parts))).toEqual(stop);
    expect(admitted).toEqual([]);
  });
});
