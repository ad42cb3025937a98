import { FRAME_SCRIPT } from './viewer-client.js';

const LEADING_DOCTYPE = /^\uFEFF?\s*<!doctype[^>]*>/i;
const HELPERS = {
  copy: Buffer.from(`<script>${FRAME_SCRIPT}(true);</script>`),
  plain: Buffer.from(`<script>${FRAME_SCRIPT}(false);</script>`),
};

/** UTF-8 length of a leading doctype (0 when there is none): where the frame helper goes. */
export function doctypeLength(html: string): number {
  const doctype = LEADING_DOCTYPE.exec(html);
  return doctype ? Buffer.byteLength(doctype[0]) : 0;
}

/**
 * The author's HTML with the frame helper in front of everything else, so copy protection is on
 * before the author's own scripts run. Inserted right after a doctype when there is one: a script
 * ahead of the doctype would switch the document to quirks mode.
 */
export function frameDocument(bytes: Buffer, doctypeEnd: number, copyProtection: boolean): Buffer {
  const helper = copyProtection ? HELPERS.copy : HELPERS.plain;
  return Buffer.concat([bytes.subarray(0, doctypeEnd), helper, bytes.subarray(doctypeEnd)]);
}
