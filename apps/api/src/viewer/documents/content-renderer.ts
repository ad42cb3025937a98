import type { DOMPurify } from 'dompurify';
import type { MarkdownIt as Markdown } from 'markdown-it';
import { escapeHtml } from '../../common/text/html.js';
import { MARKDOWN_SANITIZE_CONFIG, createMarkdown, createSanitizer } from '../../common/text/markdown.js';

/** Bumped whenever the output changes, so HTML cached in the database by an older release is redone. */
export const RENDERER_MARK = '<!--sdr:3-->';

const TEXT_BLOCK_LINES = 40;

function createViewerSanitizer(): DOMPurify {
  const purify = createSanitizer();
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && node.getAttribute('href')) {
      // Links leave the viewer without a referrer or a handle on the viewer's window.
      node.setAttribute('rel', 'noopener noreferrer nofollow');
      node.setAttribute('target', '_blank');
    }
  });
  return purify;
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
    this.sanitizer ??= createViewerSanitizer();
    return this.sanitizer.sanitize(this.markdown.render(source), MARKDOWN_SANITIZE_CONFIG);
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
