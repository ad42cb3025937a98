import { describe, expect, it } from 'vitest';
import { MAX_SECTION_ENTRIES, parseSectionReport, sectionReads } from './section-report.js';

describe(parseSectionReport.name, () => {
  it('reads index:ms pairs', () => {
    expect([...parseSectionReport('0:1234,1:560,12:7')]).toEqual([
      [0, 1234],
      [1, 560],
      [12, 7],
    ]);
  });

  it('has nothing for a missing or empty field', () => {
    expect(parseSectionReport(undefined).size).toBe(0);
    expect(parseSectionReport('').size).toBe(0);
  });

  it('drops entries that are not two runs of digits, and zeros, keeping the rest', () => {
    const report = parseSectionReport('0:-5,1:1e9,2:3.5,3: 40,x:1,4:,:5,5:0,6:123456789,7:99999999,8:200');
    expect([...report]).toEqual([
      [7, 99_999_999],
      [8, 200],
    ]);
  });

  it('keeps the larger time of an index given twice', () => {
    expect([...parseSectionReport('3:500,3:900,3:100')]).toEqual([[3, 900]]);
  });

  it(`reads at most ${MAX_SECTION_ENTRIES} entries`, () => {
    const field = Array.from({ length: 100 }, (_, i) => `${i}:10`).join(',');
    expect(parseSectionReport(field).size).toBe(MAX_SECTION_ENTRIES);
  });
});

describe(sectionReads.name, () => {
  const sections = [
    { index: 0, heading: 'Intro' },
    { index: 1, heading: 'Method' },
    { index: 2, heading: 'End' },
  ];

  it('keeps the sections the document has, with their headings, in index order', () => {
    expect(sectionReads(parseSectionReport('2:300,0:1000,3:50,999:1'), sections)).toEqual([
      { section: 0, heading: 'Intro', ms: 1000 },
      { section: 2, heading: 'End', ms: 300 },
    ]);
  });

  it('keeps nothing of a document without sections', () => {
    expect(sectionReads(parseSectionReport('0:1000'), [])).toEqual([]);
  });
});
