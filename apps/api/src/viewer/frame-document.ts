import { FRAME_SCRIPT } from './viewer-client.js';

const LEADING_DOCTYPE = /^(\uFEFF?\s*<!doctype[^>]*>)/i;

/**
 * The author's HTML with the frame helper in front of everything else, so copy protection is on
 * before the author's own scripts run. Inserted right after a doctype when there is one: a script
 * ahead of the doctype would switch the document to quirks mode.
 */
export function frameDocument(content: string, copyProtection: boolean): string {
  const helper = `<script>${FRAME_SCRIPT}(${copyProtection ? 'true' : 'false'});</script>`;
  const doctype = LEADING_DOCTYPE.exec(content);
  if (!doctype) return helper + content;
  return doctype[1] + helper + content.slice(doctype[1]!.length);
}
