import { ref, watch, type Ref } from 'vue';
import { api, call } from '../api/client';
import type { ShareVisit } from '../api/types';

/** How one document of a collection was read, from the document reads of the visit log. */
export interface DocumentReading {
  fileId: string;
  /** null once the document was deleted for good */
  fileName: string | null;
  /** distinct visitors who opened it */
  readers: number;
  /** times it was opened (one per visit that opened it) */
  opens: number;
  medianDurationMs: number | null;
  /** share of the opens that reached the end, 0..1 */
  completionRate: number | null;
}

/** A collection's reading: per document, and over every document read. */
export interface CollectionReading {
  documents: DocumentReading[];
  medianDurationMs: number | null;
  completionRate: number | null;
  /** document reads by furthest depth, ten buckets: 0–10 %, …, 90–100 % (as the single-document histogram) */
  depthHistogram: number[];
  /** the visits read from (the newest ones of the period) */
  visits: number;
  /** true when the period held more visits than were read */
  partial: boolean;
}

type DocumentRead = ShareVisit['documents'][number];

export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function completionOf(reads: readonly DocumentRead[]): number | null {
  return reads.length ? reads.filter((read) => read.completed).length / reads.length : null;
}

/**
 * Sums up the documents the visits opened. The visit log shows the same reads one visit at a
 * time, so the two can never disagree.
 */
export function collectionReadingOf(visits: readonly ShareVisit[], partial = false): CollectionReading {
  const byFile = new Map<string, { fileName: string | null; reads: DocumentRead[]; visitors: Set<string> }>();
  const depthHistogram = Array.from({ length: 10 }, () => 0);
  const all: DocumentRead[] = [];
  for (const visit of visits) {
    for (const read of visit.documents ?? []) {
      const document = byFile.get(read.fileId) ?? { fileName: read.fileName, reads: [], visitors: new Set<string>() };
      document.reads.push(read);
      document.visitors.add(visit.visitorId);
      byFile.set(read.fileId, document);
      all.push(read);
      depthHistogram[Math.min(9, Math.floor(read.scrollDepth * 10))]! += 1;
    }
  }
  const documents = [...byFile].map(([fileId, document]) => ({
    fileId,
    fileName: document.fileName,
    readers: document.visitors.size,
    opens: document.reads.length,
    medianDurationMs: median(document.reads.map((read) => read.durationMs)),
    completionRate: completionOf(document.reads),
  }));
  documents.sort((a, b) => b.readers - a.readers || (a.fileName ?? '').localeCompare(b.fileName ?? ''));
  return {
    documents,
    medianDurationMs: median(all.map((read) => read.durationMs)),
    completionRate: completionOf(all),
    depthHistogram,
    visits: visits.length,
    partial,
  };
}

const PAGE = 200;
const MAX_PAGES = 10;

/** People's visits of the last `days` days, read from the visit log (at most 2000, newest first). */
async function humanVisitsOf(shareId: string, days: number): Promise<{ visits: ShareVisit[]; partial: boolean }> {
  const from = new Date(Date.now() - days * 86_400_000).toISOString();
  const visits: ShareVisit[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer: { visits: ShareVisit[]; nextCursor: string | null } = await call(
      api().GET('/api/console/shares/{id}/visit-log', {
        params: { path: { id: shareId }, query: { automated: 'false', from, limit: PAGE, ...(cursor ? { cursor } : {}) } },
      }),
    );
    visits.push(...answer.visits);
    cursor = answer.nextCursor;
    if (!cursor) return { visits, partial: false };
  }
  return { visits, partial: true };
}

/** A collection's reading over the chosen period, reloaded when the period changes. */
export function useCollectionReading(shareId: () => string, days: Ref<number>, enabled: () => boolean) {
  const reading = ref<CollectionReading | null>(null);
  const error = ref<unknown>(null);
  async function load(): Promise<void> {
    if (!enabled()) {
      reading.value = null;
      return;
    }
    try {
      const { visits, partial } = await humanVisitsOf(shareId(), days.value);
      reading.value = collectionReadingOf(visits, partial);
      error.value = null;
    } catch (caught) {
      error.value = caught;
    }
  }
  watch([shareId, days, enabled], load, { immediate: true });
  return { reading, error, reload: load };
}
