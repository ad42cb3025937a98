import { describe, expect, it } from 'vitest';
import type { AgreementAcceptancesRepository, NewAcceptance } from '../agreement-acceptances.repository.js';
import type { GateStop } from '../gate-stop.js';
import { Signer } from '../../visitor/signer.js';
import type { ViewedShare } from '../../share-view/share-view.repository.js';
import type { ViewerRequest } from '../../visitor/viewer-answer.js';
import type { ViewerIdentity } from '../../visitor/viewer-identity.js';
import { AGREEMENT_POSTS, AgreementPolicy } from './agreement.policy.js';
import { PASS, newVisit, type Visit } from './gate-policy.js';
import { CountingLimiter, aRequest, aShare, aUser } from './visit.fixture.js';

const SHA = 'a'.repeat(64);
const VISITOR_COOKIE = { name: 'sd_visitor', value: 'signed', maxAge: 1 };

/** Acceptances in memory, keyed like the unique index (share, visitor, text). */
class MemoryAcceptances {
  readonly rows = new Map<string, NewAcceptance>();
  lookups = 0;
  text = async (): Promise<string | null> => '# Terms\n\n<script>alert(1)</script>\n\nKeep it **secret**.';
  accepted = async (shareId: string, visitorId: string, sha: string) => {
    this.lookups++;
    const row = this.rows.get(`${shareId}|${visitorId}|${sha}`);
    return row ? { name: row.name } : null;
  };
  accept = async (row: NewAcceptance) => {
    const key = `${row.shareId}|${row.visitorId}|${row.agreementSha256}`;
    if (!this.rows.has(key)) this.rows.set(key, row);
  };
}

function setup() {
  const forms = new Signer('s'.repeat(40), 'agreement-form');
  const acceptances = new MemoryAcceptances();
  let signedIn = aUser({ email: 'reader@example.com', emailVerified: true });
  const identity = {
    agreementForms: forms,
    visitorId: (key: string) => `id-${key}`,
    isBrowserBound: (key: string) => key.startsWith('b'),
    browserBoundVisitor: () => ({ key: 'bnew', cookie: { name: 'sd_visitor', value: 'signed-bnew', maxAge: 1 } }),
    user: async () => signedIn,
  } as unknown as ViewerIdentity;
  const limiter = new CountingLimiter();
  const sut = new AgreementPolicy(identity, acceptances as unknown as AgreementAcceptancesRepository, limiter);
  const visit = (
    share: Partial<ViewedShare> = {},
    request: Partial<ViewerRequest> = {},
    visitor: Visit['visitor'] = { key: 'bk1', cookie: null },
  ) => newVisit(aRequest(request), aShare({ agreementSha256: SHA, ...share }), visitor);
  return {
    sut,
    limiter,
    acceptances,
    forms,
    visit,
    setUser: (user: typeof signedIn) => (signedIn = user),
    form: (payload: Record<string, unknown>) => forms.seal(payload, 60),
  };
}

function agreementStop(step: unknown): Extract<GateStop, { kind: 'agreement' }> {
  expect(step).toMatchObject({ kind: 'agreement' });
  return step as Extract<GateStop, { kind: 'agreement' }>;
}

describe(AgreementPolicy.name, () => {
  it('asks nothing, and looks nothing up, of a link without an agreement', async () => {
    const { sut, acceptances, visit } = setup();
    expect(await sut.check(visit({ agreementSha256: null }))).toBe(PASS);
    expect(acceptances.lookups).toBe(0);
  });

  it('shows the agreement, sanitized, with a form bound to this share, text and visitor', async () => {
    const { sut, visit, forms } = setup();
    // A first visit: the initial key the gate made from address and agent, and its cookie to set.
    const first = visit({}, {}, { key: 'a1', cookie: VISITOR_COOKIE });
    const stop = agreementStop(await sut.check(first));
    expect(stop.html).toContain('<strong>secret</strong>');
    expect(stop.html).not.toContain('<script');
    expect(stop.problem).toBeNull();
    expect(forms.open(stop.form)).toMatchObject({ s: first.share.id, h: SHA, v: 'id-bnew' });
    // The page sets the visitor cookie its form is bound to: a key of this browser alone.
    expect(first.cookies).toEqual([{ name: 'sd_visitor', value: 'signed-bnew', maxAge: 1 }]);
  });

  it('records a valid acceptance with the proven address, then goes back to the link', async () => {
    const { sut, visit, acceptances, form } = setup();
    const share = aShare({ agreementSha256: SHA, agreementRequireName: true });
    const posted = visit(share, {
      method: 'POST',
      userAgent: 'UA',
      cookies: { sharedown_session: 'x' },
      form: { action: 'agree', accept: 'yes', name: '  Ann Lee ', agreement: form({ s: share.id, h: SHA, v: 'id-bk1' }) },
    });
    expect(await sut.check(posted)).toEqual({ kind: 'back-to-link' });
    expect([...acceptances.rows.values()]).toEqual([
      expect.objectContaining({
        shareId: share.id,
        visitorId: 'id-bk1',
        name: 'Ann Lee',
        email: 'reader@example.com',
        ipPrefix: '198.51.100.0/24',
        userAgent: 'UA',
        agreementSha256: SHA,
      }),
    ]);
    const again = visit(share);
    expect(await sut.check(again)).toBe(PASS);
    expect(again.acceptance).toEqual({ name: 'Ann Lee' });
  });

  it('records no address nobody proved', async () => {
    const { sut, visit, acceptances, form, setUser } = setup();
    setUser(aUser({ emailVerified: false }));
    const share = aShare({ agreementSha256: SHA });
    await sut.check(
      visit(share, {
        method: 'POST',
        cookies: { sharedown_session: 'x' },
        form: { action: 'agree', accept: 'on', agreement: form({ s: share.id, h: SHA, v: 'id-bk1' }) },
      }),
    );
    expect([...acceptances.rows.values()][0]).toMatchObject({ email: null, name: null });
  });

  it('asks again for a missing tick or a bad name, recording nothing', async () => {
    const { sut, visit, acceptances, form } = setup();
    const share = aShare({ agreementSha256: SHA, agreementRequireName: true });
    const agreement = form({ s: share.id, h: SHA, v: 'id-bk1' });
    const post = (fields: Record<string, string>) =>
      sut.check(visit(share, { method: 'POST', form: { action: 'agree', agreement, ...fields } }));
    expect(agreementStop(await post({ name: 'Ann' })).problem).toBe('accept');
    expect(agreementStop(await post({ accept: 'yes' })).problem).toBe('name');
    expect(agreementStop(await post({ accept: 'yes', name: 'x'.repeat(101) })).problem).toBe('name');
    expect(agreementStop(await post({ accept: 'yes', name: 'a\u0007b' })).problem).toBe('name');
    expect(agreementStop(await post({ accept: 'yes', name: 'Ann\u202eeeL' })).problem).toBe('name');
    expect(agreementStop(await post({ accept: 'yes', name: '\u200b' })).problem).toBe('name');
    // Names of invisible characters only: Hangul filler, braille blank, separators, a tag character.
    for (const name of ['\u3164', '\u3164\u3164', '\u2800', '\u2028', '\u2029', '\u3164 \u2800', '\u{E0041}']) {
      expect(agreementStop(await post({ accept: 'yes', name })).problem, JSON.stringify(name)).toBe('name');
    }
    expect(acceptances.rows.size).toBe(0);
  });

  it('refuses forms of another share, text or visitor, and posts without the visitor cookie', async () => {
    const { sut, visit, acceptances, form, forms } = setup();
    const share = aShare({ agreementSha256: SHA });
    const fields = { action: 'agree', accept: 'yes' };
    const forged = [
      visit(share, { method: 'POST', form: { ...fields, agreement: form({ s: 'another-share', h: SHA, v: 'id-bk1' }) } }),
      visit(share, { method: 'POST', form: { ...fields, agreement: form({ s: share.id, h: 'b'.repeat(64), v: 'id-bk1' }) } }),
      visit(share, { method: 'POST', form: { ...fields, agreement: form({ s: share.id, h: SHA, v: 'id-k2' }) } }),
      visit(share, { method: 'POST', form: { ...fields, agreement: 'not-sealed' } }),
      visit(share, { method: 'POST', form: fields }),
      visit(
        share,
        { method: 'POST', form: { ...fields, agreement: form({ s: share.id, h: SHA, v: 'id-bk1' }) } },
        { key: 'bk1', cookie: VISITOR_COOKIE },
      ),
    ];
    for (const attempt of forged) expect(await sut.check(attempt)).toEqual({ kind: 'agreement-forged' });
    expect(new Signer('s'.repeat(40), 'frame').verify(forms.sign('x'))).toBeNull();
    expect(acceptances.rows.size).toBe(0);
  });

  it('binds no acceptance to an initial key, which a whole network shares: it asks, with a key of its own', async () => {
    const { sut, visit, acceptances, form, forms } = setup();
    const share = aShare({ agreementSha256: SHA });
    // Another browser on the same network accepted under the shared initial key (as before this rule).
    await acceptances.accept({
      shareId: share.id,
      visitorId: 'id-a-shared',
      userId: null,
      name: 'Alice',
      email: null,
      ipPrefix: '198.51.100.0/24',
      userAgent: 'UA',
      agreementSha256: SHA,
    });
    const initial = visit(share, {}, { key: 'a-shared', cookie: VISITOR_COOKIE });
    const stop = agreementStop(await sut.check(initial));
    expect(initial.cookies).toEqual([expect.objectContaining({ name: 'sd_visitor', value: 'signed-bnew' })]);
    // The form names the new key, never the shared one.
    expect(forms.open(stop.form)).toMatchObject({ s: share.id, h: SHA, v: 'id-bnew' });
    expect(initial.acceptance).toBeNull();
    const posted = visit(
      share,
      { method: 'POST', form: { action: 'agree', accept: 'yes', agreement: form({ s: share.id, h: SHA, v: 'id-a-shared' }) } },
      { key: 'a-shared', cookie: null },
    );
    expect(await sut.check(posted)).toEqual({ kind: 'agreement-forged' });
  });

  it('throttles acceptances per link and client network, recording nothing past the limit', async () => {
    const { sut, visit, acceptances, form } = setup();
    const share = aShare({ agreementSha256: SHA });
    const post = (n: number) =>
      visit(
        share,
        { method: 'POST', form: { action: 'agree', accept: 'yes', agreement: form({ s: share.id, h: SHA, v: `id-bk${n}` }) } },
        { key: `bk${n}`, cookie: null },
      );
    for (let n = 0; n < AGREEMENT_POSTS; n++) expect(await sut.check(post(n))).toEqual({ kind: 'back-to-link' });
    expect(await sut.check(post(AGREEMENT_POSTS))).toEqual({ kind: 'agreement-throttled', retryAfterSeconds: 600 });
    expect(acceptances.rows.size).toBe(AGREEMENT_POSTS);
  });

  it('asks again once the text changed', async () => {
    const { sut, visit, acceptances } = setup();
    const share = aShare({ agreementSha256: SHA });
    await acceptances.accept({
      shareId: share.id,
      visitorId: 'id-bk1',
      userId: null,
      name: null,
      email: null,
      ipPrefix: 'x',
      userAgent: '',
      agreementSha256: SHA,
    });
    expect(await sut.check(visit(share))).toBe(PASS);
    agreementStop(await sut.check(visit({ ...share, agreementSha256: 'c'.repeat(64) })));
  });
});
