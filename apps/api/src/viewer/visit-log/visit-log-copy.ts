import type { VisitLogEntry } from './visit-log.repository.js';

/** The columns of share_visit_log a visit writes, in the order `visitLogCopyData` encodes them. */
export const VISIT_LOG_COPY_COLUMNS =
  'id, share_id, at, visitor_id, ip_prefix, referer, user_agent, browser, os, device, login_email, automated, measured';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const COLUMN_COUNT = 13;
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const TWO_TO_32 = 2 ** 32;
/** Per row beyond its texts: the field count, two uuids, a timestamp, two booleans and eight text lengths. */
const FIXED_ROW_BYTES = 2 + 2 * (4 + 16) + (4 + 8) + 2 * (4 + 1) + 8 * 4;

/**
 * A batch of visits in PostgreSQL's binary COPY format (the `COPY … FROM STDIN (FORMAT binary)`
 * file layout: signature, flags and header extension, then per row its field count and each field
 * as a length and its bytes, -1 for NULL, then -1 as the trailer).
 *
 * Binary, not text or CSV: a visit's texts (the referer, the agent) are the visitor's to choose,
 * and in binary every byte of them is data, with no escaping to get wrong. The types are those of
 * the table: uuid (16 bytes), timestamptz (microseconds since 2000-01-01 UTC, as a signed 64-bit
 * integer), text (UTF-8) and boolean (one byte).
 */
export function visitLogCopyData(entries: readonly VisitLogEntry[]): Buffer {
  let bound = SIGNATURE.length + 8 + 2;
  for (const entry of entries) {
    // A UTF-16 code unit is at most three bytes of UTF-8.
    bound += FIXED_ROW_BYTES;
    bound += 3 * (entry.visitorId.length + entry.ipPrefix.length + entry.device.length);
    bound += 3 * ((entry.referer?.length ?? 0) + (entry.userAgent?.length ?? 0) + (entry.loginEmail?.length ?? 0));
    bound += 3 * ((entry.browser?.length ?? 0) + (entry.os?.length ?? 0));
  }
  const data = Buffer.allocUnsafe(bound);
  let at = SIGNATURE.copy(data, 0);
  // Flags (no OIDs) and the header extension's length, both zero.
  data.fill(0, at, at + 8);
  at += 8;

  // Bytes set one by one: a row is some 30 small fields, and each Buffer method call would cost
  // more than the bytes it writes.
  const int16 = (value: number): void => {
    data[at++] = (value >>> 8) & 0xff;
    data[at++] = value & 0xff;
  };
  const int32 = (value: number): void => {
    data[at++] = (value >>> 24) & 0xff;
    data[at++] = (value >>> 16) & 0xff;
    data[at++] = (value >>> 8) & 0xff;
    data[at++] = value & 0xff;
  };
  const uuid = (id: string): void => {
    if (!UUID_SHAPE.test(id)) throw new Error(`not a uuid: ${id}`);
    int32(16);
    for (let i = 0; i < 36; i += 2) {
      if (i === 8 || i === 13 || i === 18 || i === 23) i++;
      data[at++] = (hexValue(id.charCodeAt(i)) << 4) | hexValue(id.charCodeAt(i + 1));
    }
  };
  const text = (value: string | null): void => {
    if (value === null) return int32(-1);
    const start = at;
    at += 4;
    if (value.length > SHORT_TEXT) {
      at += data.write(value, at, 'utf8');
    } else {
      // A short ASCII text (an address prefix, a browser's name) byte for byte; anything else as UTF-8.
      let i = 0;
      for (; i < value.length; i++) {
        const code = value.charCodeAt(i);
        if (code >= 0x80) break;
        data[at++] = code;
      }
      if (i < value.length) at += data.write(value.slice(i), at, 'utf8');
    }
    const length = at - start - 4;
    at = start;
    int32(length);
    at += length;
  };
  const boolean = (value: boolean): void => {
    int32(1);
    data[at++] = value ? 1 : 0;
  };

  for (const entry of entries) {
    int16(COLUMN_COUNT);
    uuid(entry.id);
    uuid(entry.shareId);
    // Whole milliseconds times 1000 stay far inside 2^53: exact as a double, split into two words.
    const micros = (entry.at.getTime() - POSTGRES_EPOCH_MS) * 1000;
    int32(8);
    int32(Math.floor(micros / TWO_TO_32));
    int32((micros % TWO_TO_32) >>> 0);
    text(entry.visitorId);
    text(entry.ipPrefix);
    text(entry.referer);
    text(entry.userAgent);
    text(entry.browser);
    text(entry.os);
    text(entry.device);
    text(entry.loginEmail);
    boolean(entry.automated);
    boolean(entry.measured);
  }
  int16(0xffff);
  return data.subarray(0, at);
}

/** Up to this many characters a text is copied in a loop; a longer one is cheaper through Buffer.write. */
const SHORT_TEXT = 24;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The value of a hexadecimal digit's character code (one the uuid's shape has checked). */
function hexValue(code: number): number {
  // '0'-'9' are 48-57; 'A'-'F' 65-70 and 'a'-'f' 97-102 share their low bits: | 0x20 lowers a letter.
  return code <= 57 ? code - 48 : (code | 0x20) - 87;
}
