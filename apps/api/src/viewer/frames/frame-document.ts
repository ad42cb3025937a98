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
 * A CSS string holding `text`: quotes, backslashes, angle brackets (so `</style>` cannot end the
 * element) and control characters escaped; spaces become no-break spaces, so one mark never
 * wraps; lines break only between marks.
 */
export function cssString(text: string): string {
  const escaped = text
    .replace(/ /g, '\u00a0')
    .replace(/[\u0000-\u001f\u007f"'\\<>&]/g, (char) => `\\${char.codePointAt(0)!.toString(16)} `);
  return `"${escaped}"`;
}

// Between two marks: em spaces for the gap (word-spacing would widen the gaps inside a mark too), then a break opportunity.
const MARK_GAP = '\u2003'.repeat(5) + ' ';

// Enough marks to tile a box twice the viewport's size in each direction on common screens.
function markCount(text: string): number {
  return Math.min(400, Math.max(60, Math.ceil(12000 / Math.max(1, text.length))));
}

/**
 * The watermark over an author's document: generated content of the root element, fixed over
 * the whole viewport, above everything, ignoring the pointer. It needs no script (it is there
 * when the frame is opened on its own with scripts off), adds no element the document's own
 * scripts or the burn-after-read helper would see, and its text cannot be selected.
 */
export function frameWatermarkStyle(text: string): string {
  const mark = cssString(text).slice(1, -1);
  const content = `"${Array.from({ length: markCount(text) }, () => mark).join(MARK_GAP)}"`;
  return (
    `<style>html::after{content:${content}!important;position:fixed!important;top:-50%!important;left:-50%!important;` +
    'width:200%!important;height:200%!important;margin:0!important;padding:0!important;display:block!important;' +
    'overflow:hidden!important;z-index:2147483647!important;pointer-events:none!important;visibility:visible!important;' +
    'opacity:1!important;transform:rotate(-28deg)!important;white-space:normal!important;word-break:keep-all!important;' +
    'overflow-wrap:normal!important;word-spacing:normal!important;text-align:center!important;' +
    'font:400 15px/6 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif!important;' +
    'color:rgba(128,128,128,.22)!important;background:none!important;-webkit-user-select:none!important;user-select:none!important;' +
    '-webkit-print-color-adjust:exact;print-color-adjust:exact}</style>'
  );
}

/**
 * The author's HTML with the frame helper in front of everything else, so copy protection is on
 * before the author's own scripts run. Inserted right after a doctype when there is one: a script
 * ahead of the doctype would switch the document to quirks mode. The watermark's style follows
 * the helper (both land in the document's head).
 */
export function frameDocument(
  bytes: Buffer,
  doctypeEnd: number,
  copyProtection: boolean,
  watermark: string | null = null,
): Buffer {
  const helper = copyProtection ? HELPERS.copy : HELPERS.plain;
  const parts = [bytes.subarray(0, doctypeEnd), helper];
  if (watermark !== null) parts.push(Buffer.from(frameWatermarkStyle(watermark)));
  parts.push(bytes.subarray(doctypeEnd));
  return Buffer.concat(parts);
}
