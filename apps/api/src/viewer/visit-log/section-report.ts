import type { DocumentSection } from '../documents/document-sections.js';
import type { SectionRead } from './section-reads.repository.js';

/** More entries than fit in a beacon's 512 bytes are not from the viewer page; the rest is not read. */
export const MAX_SECTION_ENTRIES = 64;
const ENTRY = /^(\d{1,4}):(\d{1,8})$/;

/**
 * The beacon's `s` field: `<index>:<ms>` pairs separated by commas, each the running total of
 * milliseconds the section with that index was on screen. Read strictly and entry by entry: an
 * entry that is not two runs of digits (a sign, a fraction, an exponent, a space) is dropped,
 * as is a zero; of an index given twice the larger time counts; at most MAX_SECTION_ENTRIES
 * entries are read. Never refuses the beacon: its other fields stand on their own.
 */
export function parseSectionReport(field: string | undefined): Map<number, number> {
  const report = new Map<number, number>();
  if (!field) return report;
  const entries = field.split(',', MAX_SECTION_ENTRIES);
  for (const entry of entries) {
    const match = ENTRY.exec(entry);
    if (!match) continue;
    const index = Number(match[1]);
    const ms = Number(match[2]);
    if (ms > 0 && ms > (report.get(index) ?? 0)) report.set(index, ms);
  }
  return report;
}

/** The reported sections the document has (index below its count), with their headings; the rest is dropped. */
export function sectionReads(report: ReadonlyMap<number, number>, sections: readonly DocumentSection[]): SectionRead[] {
  const reads: SectionRead[] = [];
  for (const [index, ms] of report) {
    const section = sections[index];
    if (section) reads.push({ section: index, heading: section.heading, ms });
  }
  return reads.sort((a, b) => a.section - b.section);
}
