import { describe, expect, it } from 'vitest';
import { ContentRenderer } from './content-renderer.js';
import { MAX_HEADING_CHARS, MAX_SECTIONS, documentSections } from './document-sections.js';

describe(documentSections.name, () => {
  const renderer = new ContentRenderer();

  it('finds one section per h1, h2 or h3 of rendered Markdown, in document order', () => {
    const html = renderer.renderMarkdown(
      ['Intro before any heading.', '# One', 'text', '## Two  *emphasised*', '#### Not a section', '### Three', '## Four'].join(
        '\n\n',
      ),
    );
    expect(documentSections('MARKDOWN', html)).toEqual([
      { index: 0, heading: 'One' },
      { index: 1, heading: 'Two emphasised' },
      { index: 2, heading: 'Three' },
      { index: 3, heading: 'Four' },
    ]);
  });

  it('counts Setext headings and raw HTML headings the sanitizer keeps, as the page will', () => {
    const html = renderer.renderMarkdown(
      'Title\n=====\n\nSub\n---\n\n<h3 onclick="x()">Raw <b>three</b></h3>\n\n<h4>four</h4>\n',
    );
    expect(documentSections('MARKDOWN', html).map((section) => section.heading)).toEqual(['Title', 'Sub', 'Raw three']);
  });

  it("parses an author's HTML as a browser does: implied tags, templates and noscript left out", () => {
    const html = `<!doctype html><title>t</title><p>before
      <h1>
        First    heading
      </h1><div><h2 class="x">Second <span>nested</span></h2></div>
      <template><h2>in a template</h2></template>
      <noscript><h2>without script</h2></noscript>
      <h3>Third</h3><h5>five</h5><H2>Upper</H2>`;
    expect(documentSections('HTML', html)).toEqual([
      { index: 0, heading: 'First heading' },
      { index: 1, heading: 'Second nested' },
      { index: 2, heading: 'Third' },
      { index: 3, heading: 'Upper' },
    ]);
  });

  it('cuts a heading to 200 characters (code points) and keeps an empty heading as a section', () => {
    const long = '😀'.repeat(250);
    const sections = documentSections('HTML', `<h2>${long}</h2><h2>  </h2>`);
    expect(Array.from(sections[0]!.heading)).toHaveLength(MAX_HEADING_CHARS);
    expect(sections[1]).toEqual({ index: 1, heading: '' });
  });

  it('gives text documents no sections, and stops counting at the limit', () => {
    expect(documentSections('TEXT', '<h1>not parsed</h1>')).toEqual([]);
    expect(documentSections('HTML', '<h2>x</h2>'.repeat(MAX_SECTIONS + 5))).toHaveLength(MAX_SECTIONS);
  });
});
