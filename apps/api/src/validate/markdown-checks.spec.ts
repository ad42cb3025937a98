import { describe, expect, it } from 'vitest';
import { ContentRenderer } from '../viewer/documents/content-renderer.js';
import { checkMarkdown, strippedHtml } from './markdown-checks.js';

describe(checkMarkdown.name, () => {
  it('finds nothing in ordinary Markdown', () => {
    const source = [
      '# Title',
      '',
      'A [link](https://example.com), a [ref][one], a [collapsed][] and ![img][one].',
      '',
      '```js',
      'const a = [x][y];',
      '```',
      '',
      '<details><summary>more</summary>hidden</details>',
      '',
      '[one]: https://example.com/one',
      '[collapsed]: /c',
    ].join('\n');
    expect(checkMarkdown(source)).toEqual([]);
  });

  it('reports an unclosed code fence at its opening line', () => {
    const issues = checkMarkdown('intro\n\n```python\nprint(1)\n\nmore text');
    expect(issues).toEqual([expect.objectContaining({ level: 'error', line: 3, col: 1 })]);
  });

  it('does not confuse a longer closing fence or tildes', () => {
    expect(checkMarkdown('~~~\ncode\n~~~~\n\n````\n```\n````')).toEqual([]);
    expect(checkMarkdown('~~~\ncode\n```')).toHaveLength(1);
  });

  it('reports undefined link and image references with their position', () => {
    const issues = checkMarkdown('Line one\nsee [the docs][docs] and ![logo][missing-logo]\n\n[other]: /x');
    expect(issues).toEqual([
      expect.objectContaining({ level: 'error', line: 2, col: 5, message: expect.stringContaining('[docs]') }),
      expect.objectContaining({ level: 'error', line: 2, col: 26, message: expect.stringContaining('[missing-logo]') }),
    ]);
  });

  it('ignores escaped brackets and code spans', () => {
    expect(checkMarkdown('\\[a\\]\\[b\\] and `[c][d]`')).toEqual([]);
  });

  it('warns about links markdown-it refuses', () => {
    const issues = checkMarkdown('click [here](javascript:alert(1))');
    expect(issues.some((issue) => issue.level === 'warning')).toBe(true);
  });

  it('warns about raw HTML the viewer strips, but not about HTML it keeps', () => {
    const issues = checkMarkdown('text\n\n<script>alert(1)</script>\n\nan <span onclick="x()">inline</span> <b>bold</b>');
    expect(issues).toEqual([
      expect.objectContaining({ level: 'warning', line: 3, col: 1, message: expect.stringContaining('<script>') }),
      expect.objectContaining({ level: 'warning', line: 5, message: expect.stringContaining('onclick') }),
    ]);
  });
});

describe(strippedHtml.name, () => {
  it('lists stripped elements and attributes', () => {
    expect(strippedHtml('<iframe src="x"></iframe><a href="javascript:x" style="c">y</a>')).toEqual({
      tags: ['iframe'],
      attributes: [
        { tag: 'a', name: 'href', reason: '脚本链接' },
        { tag: 'a', name: 'style', reason: '不允许的属性' },
      ],
    });
  });

  it('names elements at the start of a fragment too, where a parser would put them into <head>', () => {
    expect(strippedHtml('<style>p { color: red }</style>').tags).toEqual(['style']);
    expect(strippedHtml('<meta http-equiv="refresh" content="0">').tags).toEqual(['meta']);
  });

  it('names nothing the sanitizer keeps, and nothing in a fragment without a start tag', () => {
    expect(strippedHtml('<details open><summary>more</summary><img src="x.png" alt="x"></details>')).toEqual({
      tags: [],
      attributes: [],
    });
    expect(strippedHtml('</form>')).toEqual({ tags: [], attributes: [] });
  });

  it('reports a link the sanitizer refuses, and handlers in source order', () => {
    expect(strippedHtml('<a href="data:text/html,x" onmouseover="a()" onclick="b()">y</a>').attributes).toEqual([
      { tag: 'a', name: 'href', reason: '不允许的属性' },
      { tag: 'a', name: 'onmouseover', reason: '事件处理器' },
      { tag: 'a', name: 'onclick', reason: '事件处理器' },
    ]);
  });

  it.each([
    'script',
    'style',
    'iframe',
    'object',
    'form',
    'input',
    'button',
    'svg',
    'math',
    'title',
    'details',
    'template',
    'marquee',
    'img',
  ])('warns about <%s> exactly when the viewer drops it', (tag) => {
    const rendered = new ContentRenderer().renderMarkdown(`text\n\n<${tag}>x</${tag}>`);
    expect(strippedHtml(`<${tag}>x</${tag}>`).tags.includes(tag)).toBe(!rendered.includes(`<${tag}`));
  });
});
