import { describe, expect, it } from 'vitest';
import { ContentRenderer } from './content-renderer.js';

describe(ContentRenderer.name, () => {
  const sut = new ContentRenderer();

  it('renders Markdown with highlighted fenced code', () => {
    const html = sut.renderMarkdown('# Title\n\nSome *text*.\n\n```js\nconst x = 1;\n```\n');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<em>text</em>');
    expect(html).toMatch(/<span class="hljs-keyword">const<\/span>/);
  });

  it('removes scripts, event handlers, javascript: links, frames and forms from Markdown', () => {
    const html = sut.renderMarkdown(
      [
        '<script>alert(1)</script>',
        '<img src="x.png" onerror="alert(2)">',
        '[click](javascript:alert(3)) <a href="javascript:alert(4)">raw</a>',
        '<iframe src="https://evil.example"></iframe>',
        '<form action="https://evil.example"><input name="q"></form>',
        '<a href="https://example.com" style="color:red" id="main">ok</a>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script|onerror|href="javascript:|<iframe|<form|<input|style=|id="main"/i);
    expect(html).toContain('<img src="x.png">');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });

  it('escapes text and splits it into paragraph blocks', () => {
    const html = sut.renderText('line <b>1</b>\nline 2\n\n\nnext & last');
    expect(html).toBe('<p class="sd-text">line &lt;b&gt;1&lt;/b&gt;\nline 2</p>\n<p class="sd-text">next &amp; last</p>');
  });

  it('splits a long paragraph every 40 lines', () => {
    const html = sut.renderText(Array.from({ length: 85 }, (_, i) => `l${i}`).join('\n'));
    expect(html.match(/<p class="sd-text">/g)).toHaveLength(3);
  });
});
