import { describe, expect, it } from 'vitest';
import { testVisitLogEntry } from './visit-log-entry.fixture.js';
import { visitLogCopyData } from './visit-log-copy.js';

/** The rows of a binary COPY file, each a list of its fields' bytes (null for NULL), as PostgreSQL reads them. */
function rowsOf(data: Buffer): Array<Array<Buffer | null>> {
  expect(data.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
  expect([data.readInt32BE(11), data.readInt32BE(15)]).toEqual([0, 0]);
  const rows: Array<Array<Buffer | null>> = [];
  let at = 19;
  for (;;) {
    const fields = data.readInt16BE(at);
    at += 2;
    if (fields === -1) break;
    const row: Array<Buffer | null> = [];
    for (let i = 0; i < fields; i++) {
      const length = data.readInt32BE(at);
      at += 4;
      row.push(length === -1 ? null : data.subarray(at, at + length));
      if (length > 0) at += length;
    }
    rows.push(row);
  }
  expect(at).toBe(data.length);
  return rows;
}

const SHARE = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe(visitLogCopyData.name, () => {
  it('writes each visit as 13 fields in the columns’ order and binary types, NULL as -1', () => {
    const visit = testVisitLogEntry(SHARE, {
      id: '0190a5e2-7c3b-7def-8abc-0123456789AB',
      at: new Date('2026-03-14T01:02:03.456Z'),
      referer: null,
      loginEmail: 'reader@example.com',
      automated: true,
      measured: false,
    });
    const [row] = rowsOf(visitLogCopyData([visit]));
    expect(row).toHaveLength(13);
    expect(row![0]!.toString('hex')).toBe('0190a5e27c3b7def8abc0123456789ab');
    expect(row![1]!.toString('hex')).toBe(SHARE.replace(/-/g, ''));
    expect(row![2]!.readBigInt64BE()).toBe(BigInt(Date.parse('2026-03-14T01:02:03.456Z') - Date.UTC(2000, 0, 1)) * 1000n);
    const texts = row!.slice(3, 11).map((field) => field?.toString('utf8') ?? null);
    expect(texts).toEqual([visit.visitorId, visit.ipPrefix, null, visit.userAgent, null, null, 'desktop', 'reader@example.com']);
    expect([row![11], row![12]]).toEqual([Buffer.from([1]), Buffer.from([0])]);
  });

  it('keeps times before 2000 and every text byte for byte: UTF-8, quotes, tabs, backslashes, long or short', () => {
    const long = `https://example.com/${'ä\t"\\'.repeat(40)}`;
    const visits = [
      testVisitLogEntry(SHARE, { at: new Date('1999-12-31T23:59:59.999Z'), referer: 'ü', userAgent: long }),
      testVisitLogEntry(SHARE, { at: new Date(0), referer: '', userAgent: 'a😀b', visitorId: 'x'.repeat(30) }),
    ];
    const rows = rowsOf(visitLogCopyData(visits));
    expect(rows.map((row) => row[2]!.readBigInt64BE())).toEqual([-1000n, BigInt(-Date.UTC(2000, 0, 1)) * 1000n]);
    expect(rows.map((row) => [row[5]!.toString('utf8'), row[6]!.toString('utf8'), row[3]!.toString('utf8')])).toEqual([
      ['ü', long, visits[0]!.visitorId],
      ['', 'a😀b', 'x'.repeat(30)],
    ]);
  });

  it('refuses an id that is not a uuid instead of writing another one', () => {
    expect(() => visitLogCopyData([testVisitLogEntry(SHARE, { id: 'not-a-uuid' })])).toThrow('not a uuid');
    expect(() => visitLogCopyData([testVisitLogEntry("x'; DROP TABLE shares; --")])).toThrow('not a uuid');
    // 36 characters, but not a uuid's: a character that is no hex digit, a dash out of place.
    for (const id of [
      '0193a7c2-1111-7abc-8def-0123456789ag',
      '0193a7c2-1111-7abc-8def-0123456789:b',
      '0193a7c21-111-7abc-8def-0123456789ab',
    ]) {
      expect(() => visitLogCopyData([testVisitLogEntry(SHARE, { id })])).toThrow('not a uuid');
    }
  });

  it('writes a uuid in capitals as the same 16 bytes', () => {
    const id = '0193a7c2-1111-7abc-8def-0123456789ab';
    const [lower, upper] = [id, id.toUpperCase()].map(
      (each) => rowsOf(visitLogCopyData([testVisitLogEntry(SHARE, { id: each })]))[0]![0],
    );
    expect(upper).toEqual(lower);
    expect(lower!.toString('hex')).toBe(id.replaceAll('-', ''));
  });

  it('is an empty file for no visits', () => {
    expect(rowsOf(visitLogCopyData([]))).toEqual([]);
  });
});
