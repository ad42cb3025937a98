import { describe, expect, it } from 'vitest';
import { cssString, doctypeLength, frameDocument } from './frame-document.js';
import { isLinkPreviewAgent } from '../visitor/link-preview-agents.js';

function framed(html: string, copy: boolean): string {
  return frameDocument(Buffer.from(html), doctypeLength(html), copy).toString('utf8');
}

describe(frameDocument.name, () => {
  it('puts the helper after the doctype so the document stays in standards mode', () => {
    const doc = framed('<!DOCTYPE html><html><body>hi</body></html>', true);
    expect(doc.startsWith('<!DOCTYPE html><script>')).toBe(true);
    expect(doc).toContain('(true);</script><html>');
  });

  it('counts the doctype in bytes when something multi-byte precedes it', () => {
    const doc = framed('\uFEFF <!doctype html><p>é</p>', false);
    expect(doc.startsWith('\uFEFF <!doctype html><script>')).toBe(true);
    expect(doc.endsWith('(false);</script><p>é</p>')).toBe(true);
  });

  it('puts the helper first when there is no doctype', () => {
    expect(framed('<p>hi</p>', false)).toMatch(/^<script>[\s\S]*\(false\);<\/script><p>hi<\/p>$/);
  });

  it('adds the watermark as a fixed, pointer-transparent overlay style after the helper, only when asked', () => {
    const html = '<!doctype html><p>hi</p>';
    const marked = frameDocument(Buffer.from(html), doctypeLength(html), false, 'ACME · 2025').toString('utf8');
    expect(marked).toMatch(
      /^<!doctype html><script>[\s\S]*\(false\);<\/script><style>html::after\{content:"ACME\u00a0·\u00a02025\u2003{5} ACME\u00a0·/,
    );
    expect(marked).toContain('position:fixed!important');
    expect(marked).toContain('pointer-events:none!important');
    expect(marked).toContain('z-index:2147483647!important');
    expect(marked.endsWith('</style><p>hi</p>')).toBe(true);
    expect(framed(html, false)).not.toContain('html::after');
  });
});

describe(cssString.name, () => {
  it('keeps the text inside its string and its style element', () => {
    expect(cssString('a"b\\c</style><x>')).toBe('"a\\22 b\\5c c\\3c /style\\3e \\3c x\\3e "');
    expect(cssString("it's\nok")).toBe('"it\\27 s\\a ok"');
    expect(cssString('two words')).toBe('"two\u00a0words"');
  });
});

describe(isLinkPreviewAgent.name, () => {
  it.each([
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'facebookexternalhit/1.1',
    'Twitterbot/1.0',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'WhatsApp/2.23.20.0',
    'TelegramBot (like TwitterBot)',
    'LinkedInBot/1.0',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0)',
    'Microsoft Office Existence Discovery',
    'Microsoft Office Protocol Discovery',
    'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 10.0; WOW64; Trident/7.0; .NET4.0C; .NET4.0E; ms-office; MSOffice 16)',
    'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Teams/1.6.00.4472 Chrome/98.0.4758.141 Electron/17.4.11 Safari/537.36',
  ])('recognizes %s', (agent) => {
    expect(isLinkPreviewAgent(agent)).toBe(true);
  });

  it.each([
    'curl/8.5.0',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Valve Steam Client/default/1700000000 Chrome/126.0 Safari/537.36',
    undefined,
  ])('lets %s through', (agent) => {
    expect(isLinkPreviewAgent(agent)).toBe(false);
  });
});
