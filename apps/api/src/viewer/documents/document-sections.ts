import { createRequire } from 'node:module';
import type { FileKind } from '../../shares/share-row.js';

const require = createRequire(import.meta.url);

/** A heading's text as analytics shows it: trimmed, whitespace collapsed, at most this long. */
export const MAX_HEADING_CHARS = 200;
/** Sections past this many are not tracked (share_section_reads.section is a smallint; nobody reads a thousand). */
export const MAX_SECTIONS = 1000;
/** What starts a section, in the server's and in the page's eyes alike. */
export const SECTION_HEADINGS = 'h1, h2, h3';

/**
 * One section of a served version: everything from its heading (an h1, h2 or h3) to the next
 * one. Content before the first heading belongs to no section.
 */
export interface DocumentSection {
  index: number;
  heading: string;
}

interface HeadingElement {
  textContent: string | null;
  closest(selector: string): unknown;
}
interface ParsedDocument {
  window: { document: { querySelectorAll(selector: string): ArrayLike<HeadingElement> }; close(): void };
}
type Jsdom = new (html: string) => ParsedDocument;

let jsdom: Jsdom | undefined;

export function headingText(text: string): string {
  return Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, MAX_HEADING_CHARS).join('');
}

/**
 * The sections of a document as the browser will see it: the author's HTML (as the sandboxed
 * frame parses it) or the sanitized rendering of Markdown (as the viewer page holds it), parsed
 * by jsdom, the HTML parser the sanitizer already uses. Headings inside <noscript> are skipped: a
 * browser running the page's script parses that element's content as text. <template> content is
 * not in the document, for jsdom as for the browser. Text documents have none.
 */
export function documentSections(kind: FileKind, html: string): DocumentSection[] {
  if (kind === 'TEXT') return [];
  // Loaded on the first use, like the sanitizer's: a replica that only serves stored renderings never needs jsdom.
  jsdom ??= (require('jsdom') as { JSDOM: Jsdom }).JSDOM;
  const { window } = new jsdom(html);
  try {
    const sections: DocumentSection[] = [];
    for (const element of Array.from(window.document.querySelectorAll(SECTION_HEADINGS))) {
      if (element.closest('noscript')) continue;
      sections.push({ index: sections.length, heading: headingText(element.textContent ?? '') });
      if (sections.length === MAX_SECTIONS) break;
    }
    return sections;
  } finally {
    window.close();
  }
}
