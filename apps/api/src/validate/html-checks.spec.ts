import { describe, expect, it } from 'vitest';
import { checkHtml, scanHtml } from './html-checks.js';

const page = (body: string) => `<!DOCTYPE html>\n<html><head><title>T</title></head>\n<body>\n${body}\n</body></html>\n`;

describe(checkHtml.name, () => {
  it('finds nothing in a well-formed page', () => {
    expect(checkHtml(page('<div id="a"><p>one<p>two<br><img src="x.png" alt=""></div>\n<ul><li>a<li>b</ul>'))).toEqual([]);
  });

  it('reports an unclosed element where it opens', () => {
    const issues = checkHtml('<!DOCTYPE html><title>T</title>\n\n\n<div>\n  <span>text');
    expect(issues).toContainEqual(
      expect.objectContaining({ level: 'error', line: 5, col: 3, message: expect.stringContaining('<span>') }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({ level: 'error', line: 4, col: 1, message: expect.stringContaining('<div>') }),
    );
  });

  it('reports a mismatched end tag at the end tag', () => {
    const issues = scanHtml('<div><b>bold</div>').issues;
    expect(issues).toEqual([
      expect.objectContaining({ level: 'error', line: 1, col: 13, message: expect.stringContaining('</div>') }),
    ]);
  });

  it('reports an end tag without a start tag', () => {
    expect(scanHtml('<p>x</p></span>').issues).toEqual([
      expect.objectContaining({ level: 'error', line: 1, col: 9, message: expect.stringContaining('</span>') }),
    ]);
  });

  it('reports duplicate ids with the first occurrence', () => {
    const issues = scanHtml('<a id="x"></a>\n<b id="x"></b>').issues;
    expect(issues).toEqual([
      expect.objectContaining({ level: 'error', line: 2, col: 4, message: expect.stringContaining('第 1 行') }),
    ]);
  });

  it('warns about a missing doctype and title', () => {
    const messages = checkHtml('<p>hi</p>').map((issue) => `${issue.level}:${issue.message}`);
    expect(messages).toEqual([expect.stringMatching(/^warning:.*DOCTYPE/), expect.stringMatching(/^warning:.*<title>/)]);
  });

  it('treats an empty title as missing', () => {
    expect(scanHtml('<!doctype html><title> </title>').hasTitle).toBe(false);
    expect(scanHtml('<!doctype html><title>&amp;</title>').hasTitle).toBe(true);
  });

  it('warns about scripts, inline handlers and javascript: links without failing', () => {
    const issues = checkHtml(
      page(
        '<script>if (a < b) document.write("</div>")</script>\n<button onclick="go()">x</button><a href=" javascript:x()">y</a>',
      ),
    );
    expect(issues.map((issue) => issue.level)).toEqual(['warning', 'warning', 'warning']);
    expect(issues.map((issue) => issue.line)).toEqual([4, 5, 5]);
  });

  it('accepts self-closing elements in SVG and flags them on HTML elements', () => {
    expect(scanHtml('<svg><path d="M0"/><g/></svg>').issues).toEqual([]);
    const issues = scanHtml('<div/>').issues;
    expect(issues.map((issue) => issue.level)).toEqual(['warning', 'error']);
  });

  it('ignores markup inside comments and raw text', () => {
    expect(scanHtml('<!-- <div> --><style>p > a { }</style><textarea></b></textarea>').issues).toEqual([]);
  });
});
