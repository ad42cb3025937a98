import { describe, expect, it } from 'vitest';
import { markdownPreviewDocument } from '../composables/markdownPreview';

describe('markdownPreviewDocument', () => {
  it('renders Markdown into a standalone page', async () => {
    const html = await markdownPreviewDocument('# Title\n\n- one\n- two\n', 'notes.md');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<title>notes.md</title>');
    expect(html.startsWith('<!doctype html><html><head>')).toBe(true);
  });

  it('escapes raw HTML and the title instead of passing them through', async () => {
    const html = await markdownPreviewDocument('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>', '<b>x</b>.md');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<title>&#60;b&#62;x&#60;/b&#62;.md</title>');
  });

  it('follows the console theme', async () => {
    expect(await markdownPreviewDocument('x', 'x.md', true)).toContain('<html class="dark">');
  });
});
