import { createRequire } from 'node:module';
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import type { HLJSApi } from 'highlight.js';
import MarkdownIt, { type MarkdownIt as Markdown } from 'markdown-it';
import { escapeHtml } from './html.js';

const require = createRequire(import.meta.url);

let highlighter: HLJSApi | null = null;

/**
 * highlight.js with every language it knows, loaded on the first fenced code block and not at
 * start: it instantiates all its languages when loaded (~18 MiB of a process), and an api replica
 * that serves stored renderings never needs it.
 */
function hljs(): HLJSApi {
  highlighter ??= require('highlight.js') as HLJSApi;
  return highlighter;
}

/**
 * The one Markdown setup: raw HTML allowed (the sanitizer below removes what is unsafe), bare
 * links linkified, fenced code highlighted by highlight.js. The viewer renders with it and the
 * validator parses with it, so both read a document the same way.
 */
export function createMarkdown(): Markdown {
  return new MarkdownIt({
    html: true,
    linkify: true,
    typographer: false,
    highlight: (code, language) => {
      const name = language.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
      if (name && hljs().getLanguage(name)) {
        try {
          return `<pre class="hljs"><code class="language-${escapeHtml(name)}">${hljs().highlight(code, { language: name, ignoreIllegals: true }).value}</code></pre>`;
        } catch {
          // fall through to plain escaping
        }
      }
      return `<pre class="hljs"><code>${escapeHtml(code)}</code></pre>`;
    },
  });
}

/** What the sanitizer keeps of rendered Markdown: the HTML profile, without styles, forms, frames and plugins. */
export const MARKDOWN_SANITIZE_CONFIG: Readonly<Config> = {
  USE_PROFILES: { html: true, svg: false, mathMl: false },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style', 'id', 'name'],
};

/** A DOMPurify of its own (hooks and the `removed` list belong to the instance), on a jsdom window. */
export function createSanitizer(): DOMPurify {
  // Loaded on the first rendering or validation, not at start: jsdom alone adds ~60 MiB to a
  // process, and an api replica that serves stored renderings never needs it.
  // jsdom ships no type declarations; only its JSDOM window is needed here.
  const { JSDOM } = require('jsdom') as { JSDOM: new (html: string) => { window: unknown } };
  return createDOMPurify(new JSDOM('').window as never);
}
