import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../common/runtime.js';
import type { GateStop } from '../gate/gate-stop.js';
import { aRequest, aShare, aUser } from '../gate/policies/visit.fixture.js';
import type { CookieToSet } from '../visitor/viewer-answer.js';
import { ViewerAssets } from './viewer-assets.js';
import { senderOf, ViewerPresenter } from './viewer-presenter.js';

const PUBLIC_URL = 'http://127.0.0.1:8080';

function presenter(env: Partial<Runtime['env']> = {}): ViewerPresenter {
  const runtime = { env: { PUBLIC_URL, RENDER_URL: PUBLIC_URL, PASSWORD_LOGIN: true, ...env } } as unknown as Runtime;
  return new ViewerPresenter(new ViewerAssets(), runtime);
}

describe(ViewerPresenter.name, () => {
  const sut = presenter();
  const share = aShare({ ownerSegment: 'owner', token: 'tok123', fileName: 'notes.md' });
  const stopped = (stop: GateStop, cookies: CookieToSet[] = [], request = aRequest()) =>
    sut.view(request, { kind: 'stopped', share, stop, cookies });

  it.each<[GateStop, number]>([
    [{ kind: 'refused', outcome: 'NOT_FOUND' }, 404],
    [{ kind: 'refused', outcome: 'REVOKED' }, 410],
    [{ kind: 'refused', outcome: 'EXPIRED' }, 410],
    [{ kind: 'refused', outcome: 'CONSUMED' }, 410],
    [{ kind: 'refused', outcome: 'SESSION_TAKEN' }, 403],
    [{ kind: 'refused', outcome: 'VISITOR_LIMIT' }, 410],
    [{ kind: 'refused', outcome: 'USER_LIMIT' }, 410],
    [{ kind: 'trashed' }, 410],
    [{ kind: 'owner-disabled' }, 410],
    [{ kind: 'quarantined' }, 410],
    [{ kind: 'link-exists' }, 200],
    [{ kind: 'link-preview' }, 200],
    [{ kind: 'foreign-form' }, 403],
    [{ kind: 'sign-in' }, 401],
    [{ kind: 'unverified', user: aUser({ emailVerified: false }) }, 403],
    [{ kind: 'not-listed', email: 'other@example.com' }, 403],
    [{ kind: 'password', wrong: false }, 401],
    [{ kind: 'password', wrong: true }, 401],
    [{ kind: 'reveal' }, 200],
    [{ kind: 'agreement', html: '<p>Terms</p>', requireName: false, form: 'f', problem: null, name: '' }, 200],
    [{ kind: 'agreement', html: '<p>Terms</p>', requireName: true, form: 'f', problem: 'name', name: '' }, 400],
    [{ kind: 'agreement-forged' }, 403],
    [{ kind: 'unavailable' }, 503],
  ])('answers %o with %i', (stop, status) => {
    expect(stopped(stop).status).toBe(status);
  });

  it('sets the cookies the gate established, whatever the page', () => {
    const cookie = { name: 'sd_browser', value: 'x' };
    expect(stopped({ kind: 'refused', outcome: 'SESSION_TAKEN' }, [cookie]).cookies).toEqual([cookie]);
    expect(stopped({ kind: 'password', wrong: true }, [cookie]).cookies).toEqual([cookie]);
  });

  it('shows the agreement with its form: the signed field, a checkbox accept, a name when asked for, a button', () => {
    const stop: GateStop = {
      kind: 'agreement',
      html: '<h1>NDA</h1>',
      requireName: true,
      form: 'sealed.sig',
      problem: null,
      name: '<Ann>',
    };
    const page = String(stopped(stop).body);
    expect(page).toContain('<div class="sd-agreement"><h1>NDA</h1></div>');
    expect(page).not.toContain('sd-doc');
    expect(page).toContain('<form method="post" action="/s/owner/tok123">');
    expect(page).toContain('<input type="hidden" name="action" value="agree">');
    expect(page).toContain('<input type="hidden" name="agreement" value="sealed.sig">');
    expect(page).toMatch(/<input type="checkbox" name="accept" value="yes" required>/);
    expect(page).toMatch(/<input type="text" name="name" required minlength="1" maxlength="100"[^>]*value="&lt;Ann&gt;"/);
    expect(page).toContain('<button type="submit">');
    expect(String(stopped({ ...stop, requireName: false }).body)).not.toContain('name="name"');
    const missing = String(stopped({ ...stop, problem: 'accept' }).body);
    expect(missing).toContain('class="sd-error"');
  });

  it('names the document to a link preview by its file name only', () => {
    const preview = String(stopped({ kind: 'link-preview' }).body);
    expect(preview).toContain('<meta property="og:title" content="notes.md">');
    expect(preview).toContain('<title>notes.md</title>');
    expect(preview).not.toContain('sd-doc');
  });

  it('tells scanning visitors when to come back, and throttled ones too', () => {
    expect(stopped({ kind: 'scanning' })).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
    expect(stopped({ kind: 'scan-failed' })).toMatchObject({ status: 503, headers: { 'Retry-After': '60' } });
    const throttled = stopped({ kind: 'password-throttled', retryAfterSeconds: 125 });
    expect(throttled).toMatchObject({ status: 429, headers: { 'Retry-After': '125' } });
    expect(throttled.body).toContain('3分钟');
  });

  it('answers a failure to reach the database with 503 and a Retry-After, any other failure with 500', () => {
    const down = sut.serverFailure(aRequest(), Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(down).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
    expect(String(down.body)).toContain('服务暂时不可用');
    const fault = sut.serverFailure(aRequest(), new TypeError('undefined is not a function'));
    expect(fault.status).toBe(500);
    expect(fault.headers).toBeUndefined();
  });

  it('words every page in the language of the request, and says which', () => {
    const english = stopped({ kind: 'reveal' }, [], aRequest({ locale: 'en' })).body.toString();
    expect(english).toContain('<html lang="en"');
    expect(english).toContain('“notes.md” is ready.');
    const german = stopped(
      { kind: 'password-throttled', retryAfterSeconds: 125 },
      [],
      aRequest({ locale: 'de' }),
    ).body.toString();
    expect(german).toContain('<html lang="de"');
    expect(german).toContain('3 Minuten');
  });

  it('offers the language switch back to the page itself, and back to the link after a form', () => {
    const shown = stopped({ kind: 'reveal' }).body.toString();
    expect(shown).toContain(`href="/s/_lang?to=ja&amp;next=${encodeURIComponent('/s/owner/tok123')}" lang="ja"`);
    expect(shown).toContain('日本語');
    const answered = stopped({ kind: 'password', wrong: true }, [], aRequest({ method: 'POST', form: { action: 'password' } }));
    expect(answered.body.toString()).toContain(`next=${encodeURIComponent('/s/owner/tok123')}`);
  });

  it('sends a handled form back to the link', () => {
    expect(stopped({ kind: 'back-to-link' })).toMatchObject({ status: 303, body: '', location: '/s/owner/tok123' });
  });

  it('marks a wrong password on the form, and never names the password', () => {
    expect(stopped({ kind: 'password', wrong: true }).body).toContain('密码不正确。');
    expect(stopped({ kind: 'password', wrong: false }).body).not.toContain('密码不正确。');
  });

  it('signs in on PUBLIC_URL, and from a separate render host bounces through it', () => {
    const here = stopped({ kind: 'sign-in' });
    expect(here.body).toContain('action="/s/_login"');
    const elsewhere = stopped({ kind: 'sign-in' }, [], aRequest({ origin: 'http://render.localhost:8081' }));
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toContain(`${PUBLIC_URL}/s/_bounce?next=${encodeURIComponent('/s/owner/tok123')}`);
    expect(elsewhere.body).not.toContain('action="/s/_login"');
  });

  it('offers an unproven visitor what this instance can prove an address with', () => {
    const user = aUser({ email: 'new@example.com', emailVerified: false });
    expect(
      presenter({ SMTP_URL: 'smtp://127.0.0.1:2525' } as never).view(aRequest(), {
        kind: 'stopped',
        share,
        stop: { kind: 'unverified', user },
        cookies: [],
      }).body,
    ).toContain('new@example.com');
    const sso = presenter({ OIDC_ISSUER_URL: 'https://id.example.com', OIDC_BUTTON_LABEL: 'Company SSO' } as never);
    expect(sso.view(aRequest(), { kind: 'stopped', share, stop: { kind: 'unverified', user }, cookies: [] }).body).toContain(
      'Company SSO',
    );
  });

  it('puts Markdown inline and HTML into the frame of an admitted visit', () => {
    const content = { bytes: Buffer.from('<p>inline body</p>'), doctypeLength: 0 };
    const after = async () => undefined;
    const markdown = sut.view(aRequest(), {
      kind: 'shown',
      share,
      content,
      watermark: null,
      frameUrl: null,
      beacon: null,
      cookies: [],
      after,
    });
    expect(markdown.status).toBe(200);
    // The page comes in parts, the cached document's own bytes in the middle.
    expect(Array.isArray(markdown.body)).toBe(true);
    const parts = markdown.body as Buffer[];
    expect(parts[1]).toBe(content.bytes);
    expect(Buffer.concat(parts).toString()).toContain('<article class="sd-doc"><p>inline body</p></article>');
    expect(markdown.after).toBe(after);
    const html = sut.view(aRequest(), {
      kind: 'shown',
      share: aShare({ fileKind: 'HTML' }),
      content,
      watermark: 'someone · 2026-01-01 00:00 UTC',
      frameUrl: '/s/_render/ticket',
      beacon: null,
      cookies: [],
      after,
    });
    expect(html.body.toString()).not.toContain('inline body');
    expect(html.body.toString()).toContain('/s/_render/ticket');
    expect(html.body.toString()).toContain('someone · 2026-01-01 00:00 UTC');
  });
});

describe(senderOf.name, () => {
  it('names the owner a link’s address carries, and no one on the viewer’s own routes', () => {
    expect(senderOf('/s/maria-kelle/Ab3dEf6hIj9kLm0n')).toBe('maria-kelle');
    expect(senderOf('/s/maria-kelle/Ab3dEf6hIj9kLm0n/d/0b0c')).toBe('maria-kelle');
    expect(senderOf('/s/_email-code?next=%2Fs%2Fa%2Fb')).toBeNull();
    expect(senderOf('/s/_lang?to=de')).toBeNull();
  });
});
