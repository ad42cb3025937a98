import { describe, expect, it } from 'vitest';
import { doctypeLength, frameDocument } from './frame-document.js';
import { isLinkPreviewAgent } from './link-preview-agents.js';

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
  ])('recognizes %s', (agent) => {
    expect(isLinkPreviewAgent(agent)).toBe(true);
  });

  it.each(['curl/8.5.0', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36', undefined])(
    'lets %s through',
    (agent) => {
      expect(isLinkPreviewAgent(agent)).toBe(false);
    },
  );
});
