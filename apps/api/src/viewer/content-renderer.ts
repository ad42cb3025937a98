import { createRequire } from 'node:module';
import createDOMPurify, { type DOMPurify } from 'dompurify';
import hljs from 'highlight.js';
import MarkdownIt, { type MarkdownIt as Markdown } from 'markdown-it';
import { escapeHtml } from './html.js';

// jsdom ships no type declarations; only its JSDOM window is needed here.
const require = createRequire(import.meta.url);
const { JSDOM } = require('jsdom') as { JSDOM: new (html: string) => { window: unknown } };

/** Bumped whenever the output changes, so HTML cached in the database by an older release is redone. */
export const RENDERER_MARK = '<!--sdr:3-->';

const TEXT_BLOCK_LINES = 40;

function createSanitizer(): DOMPurify {
  const purify = createDOMPurify(new JSDOM('').window as never);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && node.getAttribute('href')) {
      // Links leave the viewer without a referrer or a handle on the viewer's window.
      node.setAttribute('rel', 'noopener noreferrer nofollow');
      node.setAttribute('target', '_blank');
    }
  });
  return purify;
}

function createMarkdown(): Markdown {
  const markdown: Markdown = new MarkdownIt({
    html: true,
    linkify: true,
    typographer: false,
    highlight: (code, language) => {
      const name = language.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
      if (name && hljs.getLanguage(name)) {
        try {
          return `<pre class="hljs"><code class="language-${escapeHtml(name)}">${hljs.highlight(code, { language: name, ignoreIllegals: true }).value}</code></pre>`;
        } catch {
          // fall through to plain escaping
        }
      }
      return `<pre class="hljs"><code>${markdown.utils.escapeHtml(code)}</code></pre>`;
    },
  });
  return markdown;
}

/**
 * Markdown and plain text become sanitized HTML on the server: markdown-it (raw HTML allowed,
 * then DOMPurify removes everything unsafe), highlight.js for fenced code. Top-level elements of
 * the result are the blocks burn-after-read hides one by one.
 */
export class ContentRenderer {
  private markdown?: Markdown;
  private sanitizer?: DOMPurify;

  renderMarkdown(source: string): string {
    this.markdown ??= createMarkdown();
    this.sanitizer ??= createSanitizer();
    const html = this.markdown.render(source);
    return this.sanitizer.sanitize(html, {
      USE_PROFILES: { html: true, svg: false, mathMl: false },
      FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
      FORBID_ATTR: ['style', 'id', 'name'],
    });
  }

  /** Escaped text in blocks of paragraphs (long paragraphs split every 40 lines). */
  renderText(source: string): string {
    const paragraphs = source.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n+/);
    const blocks: string[] = [];
    for (const paragraph of paragraphs) {
      if (!paragraph.trim()) continue;
      const lines = paragraph.split('\n');
      for (let start = 0; start < lines.length; start += TEXT_BLOCK_LINES) {
        blocks.push(`<p class="sd-text">${escapeHtml(lines.slice(start, start + TEXT_BLOCK_LINES).join('\n'))}</p>`);
      }
    }
    return blocks.join('\n');
  }

  render(kind: 'MARKDOWN' | 'TEXT', source: string): string {
    return kind === 'MARKDOWN' ? this.renderMarkdown(source) : this.renderText(source);
  }
}
