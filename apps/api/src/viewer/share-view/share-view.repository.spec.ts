import type { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { ShareViewRepository } from './share-view.repository.js';

/** A database whose admission answers the given rows, whatever it is asked. */
function answering(rows: Array<{ idx: number; outcome: string; visit_no: number; unique_no: number }>): DataSource {
  return { query: async () => rows } as unknown as DataSource;
}

const visit = (visitorKey: string) => ({ visitorKey, userId: null, browserKey: null });

describe('ShareViewRepository.admitAll', () => {
  it('places each admission by its idx: the statement answers its rows in no particular order', async () => {
    const repository = new ShareViewRepository(
      answering([
        { idx: 3, outcome: 'CONSUMED', visit_no: 0, unique_no: 0 },
        { idx: 1, outcome: 'ADMITTED', visit_no: 8, unique_no: 4 },
        { idx: 2, outcome: 'ADMITTED', visit_no: 9, unique_no: 4 },
      ]),
    );
    expect(await repository.admitAll('share', [visit('a'), visit('a'), visit('b')])).toEqual([
      { outcome: 'ADMITTED', visitCount: 8, uniqueVisitCount: 4 },
      { outcome: 'ADMITTED', visitCount: 9, uniqueVisitCount: 4 },
      { outcome: 'CONSUMED', visitCount: 0, uniqueVisitCount: 0 },
    ]);
  });

  it('refuses an answer that misses a visit or names one twice', async () => {
    const twice = new ShareViewRepository(
      answering([
        { idx: 1, outcome: 'ADMITTED', visit_no: 1, unique_no: 1 },
        { idx: 1, outcome: 'ADMITTED', visit_no: 2, unique_no: 1 },
      ]),
    );
    await expect(twice.admitAll('share', [visit('a'), visit('b')])).rejects.toThrow('twice');
    const short = new ShareViewRepository(answering([{ idx: 1, outcome: 'ADMITTED', visit_no: 1, unique_no: 1 }]));
    await expect(short.admitAll('share', [visit('a'), visit('b')])).rejects.toThrow('1 rows for 2 visits');
  });
});
