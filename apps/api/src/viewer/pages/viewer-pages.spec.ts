import { describe, expect, it } from 'vitest';
import { documentPage, type DocumentPageOptions } from './viewer-pages.js';
import { ViewerText } from './viewer-text.js';

const document = Buffer.from('<h1>Kept</h1><p>once per version</p>');

function options(overrides: Partial<DocumentPageOptions> = {}): DocumentPageOptions {
  return {
    context: {
      assets: { css: '/s/_assets/viewer.1.css', js: '/s/_assets/viewer.1.js' },
      text: new ViewerText('en'),
      returnPath: null,
    },
    fileName: 'Notes <draft> & "plans".md',
    shareId: '00000000-0000-4000-8000-0000000000a1',
    versionId: '00000000-0000-4000-8000-0000000000b1',
    reportUrl: '/s/alice/tok/report',
    inlineHtml: document,
    frameUrl: null,
    watermark: null,
    copyProtection: false,
    burnAfterRead: false,
    beacon: 'share.visit.file.c2lnbmF0dXJl',
    ...overrides,
  };
}

const bytesOf = (page: Buffer | readonly Buffer[]) => (Buffer.isBuffer(page) ? page : Buffer.concat(page));

describe('documentPage', () => {
  it('serves a kept page around an inline document byte for byte as a page built anew, beacon and all', () => {
    // A watermark is built per view: the same options with one show what a page built anew is.
    const built = (o: DocumentPageOptions) =>
      bytesOf(documentPage({ ...o, watermark: 'x' }))
        .toString('utf8')
        .replace(/<div class="sd-wm"[^]*?<\/div>/, '');
    for (const variant of [
      options(),
      options({ beacon: null }),
      options({ copyProtection: true, burnAfterRead: true }),
      options({ context: { ...options().context, text: new ViewerText('zh-CN') } }),
    ]) {
      const first = bytesOf(documentPage(variant)).toString('utf8');
      const again = bytesOf(documentPage(variant)).toString('utf8');
      expect(again).toBe(first);
      expect(first).toBe(built(variant));
    }
  });

  it("puts each view's own beacon in a kept page, escaped, and the document's own buffer unchanged", () => {
    const one = documentPage(options({ beacon: 'a.b.c' })) as Buffer[];
    const two = documentPage(options({ beacon: 'x"y' })) as Buffer[];
    expect(bytesOf(one).toString()).toContain('data-visit="a.b.c"');
    expect(bytesOf(two).toString()).toContain('data-visit="x&quot;y"');
    expect(one).toContain(document);
    expect(bytesOf(documentPage(options({ beacon: null }))).toString()).not.toContain('data-visit');
  });
});
