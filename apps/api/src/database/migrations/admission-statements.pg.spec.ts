import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestShare, createTestUser, type TestDatabase } from '../test-database.fixture.js';
import { AdmissionStatements1763700001910 } from './1763700001910-admission-statements.js';

let db: TestDatabase;
let ownerId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  ownerId = (await createTestUser(db.dataSource)).id;
});
afterAll(async () => {
  await db?.drop();
});

const sql = (text: string, parameters: unknown[] = []) => db.dataSource.query(text, parameters);

const newShare = async () => (await createTestShare(db.dataSource, ownerId)).shareId;

/** Admits a batch; answers the share's counters and its per-account counts afterwards. */
async function admit(shareId: string, users: Array<string | null>) {
  const rows = await sql(
    `SELECT idx, outcome, visit_no, unique_no FROM share_admit_visits($1, $2::text[], $3::uuid[], $4::text[])`,
    [shareId, users.map((_, i) => `k${i % 2}`), users, users.map(() => null)],
  );
  const [counts] = await sql('SELECT visit_count, unique_visit_count FROM shares WHERE id = $1', [shareId]);
  const accounts = await sql('SELECT user_id, visits FROM share_user_visits WHERE share_id = $1 ORDER BY visits', [shareId]);
  return { rows: [...rows].sort((a, b) => a.idx - b.idx), counts, accounts };
}

const genericPlans = async () =>
  (await sql(`SELECT proconfig FROM pg_proc WHERE oid = 'share_admit_visits(uuid, text[], uuid[], text[])'::regprocedure`))[0]
    .proconfig;

describe('share_admit_visits: one plan per session, the account upsert only for signed-in visits', () => {
  it('counts anonymous batches and mixed ones exactly, before and after down() and up()', async () => {
    const other = (await createTestUser(db.dataSource)).id;
    const expected = (shareId: string) => ({
      rows: [1, 2, 3, 4].map((idx) => ({ idx, outcome: 'ADMITTED', visit_no: idx, unique_no: idx === 1 ? 1 : 2 })),
      counts: { visit_count: 4, unique_visit_count: 2 },
      accounts: [
        { user_id: other, visits: 1 },
        { user_id: ownerId, visits: 2 },
      ],
      shareId,
    });
    const run = async () => {
      const shareId = await newShare();
      const anonymous = await admit(shareId, [null, null]);
      expect(anonymous.accounts).toEqual([]);
      const second = await newShare();
      return { ...(await admit(second, [ownerId, null, ownerId, other])), shareId: second };
    };
    expect(await genericPlans()).toEqual(['plan_cache_mode=force_generic_plan']);
    const up = await run();
    expect(up).toEqual(expected(up.shareId));

    const migration = new AdmissionStatements1763700001910();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await genericPlans()).toBeNull();
      const down = await run();
      expect(down).toEqual(expected(down.shareId));
      await migration.up(runner);
      expect(await genericPlans()).toEqual(['plan_cache_mode=force_generic_plan']);
    } finally {
      await runner.release();
    }
  });
});
