import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SetBasedAdmission1763700001600 } from '../../database/migrations/1763700001600-set-based-admission.js';
import { NewVisitorNumbering1763700002100 } from '../../database/migrations/1763700002100-new-visitor-numbering.js';
import { createTestDatabase, createTestUser, type TestDatabase } from '../../database/test-database.fixture.js';

interface Outcome {
  idx: number;
  outcome: string;
  visit_no: number;
  unique_no: number;
}

interface Policies {
  max_visits?: number | null;
  per_visitor_max_visits?: number | null;
  consumed?: boolean;
  revoked?: boolean;
  expired?: boolean;
}

/**
 * `share_admit_visits` judges a batch set-based when no rule depends on the visitor. It must
 * answer exactly what the per-visit loop it replaced answers: the same outcomes, visit numbers,
 * unique counts and counters, for batches with repeated visitors, accounts and a total cap.
 */
describe('share_admit_visits, set-based', () => {
  let database: TestDatabase;
  let db: DataSource;
  let ownerId: string;
  let fileId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.dataSource;
    ownerId = (await createTestUser(db)).id;
    const files: Array<{ id: string }> = await db.query(
      `INSERT INTO files (user_id, name, kind) VALUES ($1, 'a.md', 'MARKDOWN') RETURNING id`,
      [ownerId],
    );
    fileId = files[0]!.id;
    // The loop as it was, under another name, to compare against.
    let loop = '';
    await new SetBasedAdmission1763700001600().down({
      query: async (sql: string) => {
        loop = sql;
      },
    } as never);
    await db.query(loop.replace('FUNCTION share_admit_visits(', 'FUNCTION share_admit_visits_loop('));
  });
  afterAll(async () => database?.drop());

  async function newShare(policies: Policies, visits = 0, uniques = 0): Promise<string> {
    const rows: Array<{ id: string }> = await db.query(
      `INSERT INTO shares (user_id, file_id, token, max_visits, per_visitor_max_visits, consumed_at, revoked_at, expires_at,
                           visit_count, unique_visit_count)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN now() END, CASE WHEN $7 THEN now() END,
               CASE WHEN $8 THEN now() - interval '1 hour' END, $9, $10)
       RETURNING id`,
      [
        ownerId,
        fileId,
        randomBytes(12).toString('base64url'),
        policies.max_visits ?? null,
        policies.per_visitor_max_visits ?? null,
        policies.consumed ?? false,
        policies.revoked ?? false,
        policies.expired ?? false,
        visits,
        uniques,
      ],
    );
    return rows[0]!.id;
  }

  async function admit(fn: string, shareId: string, visitors: string[], users: (string | null)[]): Promise<Outcome[]> {
    return db.query(`SELECT idx, outcome, visit_no, unique_no FROM ${fn}($1, $2::text[], $3::uuid[], $4::text[]) ORDER BY idx`, [
      shareId,
      visitors,
      users,
      visitors.map(() => null),
    ]);
  }

  async function stateOf(shareId: string) {
    const [share] = await db.query(
      `SELECT visit_count, unique_visit_count, consumed_at IS NOT NULL AS consumed FROM shares WHERE id = $1`,
      [shareId],
    );
    const visitors = await db.query(`SELECT visitor_key, visits FROM share_visitors WHERE share_id = $1 ORDER BY visitor_key`, [
      shareId,
    ]);
    const accounts = await db.query(`SELECT user_id, visits FROM share_user_visits WHERE share_id = $1 ORDER BY user_id`, [
      shareId,
    ]);
    const [hours] = await db.query(`SELECT coalesce(sum(visits), 0)::int AS visits FROM share_visit_hours WHERE share_id = $1`, [
      shareId,
    ]);
    return { share, visitors, accounts, hours };
  }

  /** Runs the same batches through both functions on twin shares and expects the same answers and state. */
  async function expectSameAsLoop(policies: Policies, batches: string[][], start = { visits: 0, uniques: 0 }) {
    const setBased = await newShare(policies, start.visits, start.uniques);
    const looped = await newShare(policies, start.visits, start.uniques);
    const accountIds = [ownerId, null];
    for (const batch of batches) {
      const users = batch.map((_, index) => accountIds[index % 2]!);
      const expected = await admit('share_admit_visits_loop', looped, batch, users);
      expect(await admit('share_admit_visits', setBased, batch, users)).toEqual(expected);
    }
    const [mine, theirs] = [await stateOf(setBased), await stateOf(looped)];
    expect(mine).toEqual(theirs);
    return mine;
  }

  it('numbers visits and new visitors of an uncapped share like the loop, repeated visitors included', async () => {
    const state = await expectSameAsLoop({}, [['a', 'b', 'a', 'c', 'a'], ['c', 'd', 'd'], ['a'], ['e', 'e', 'f', 'b']]);
    expect(state.share).toMatchObject({ visit_count: 13, unique_visit_count: 6 });
    expect(state.hours.visits).toBe(13);
  });

  it('counts a batch of known visitors only without raising the unique count, and a batch of new ones each once', async () => {
    const state = await expectSameAsLoop({}, [['a', 'b', 'a'], ['b', 'a', 'a', 'b'], ['b'], ['c', 'd', 'e', 'c'], ['e', 'd']]);
    expect(state.share).toMatchObject({ visit_count: 14, unique_visit_count: 5 });
    expect(state.visitors).toEqual([
      { visitor_key: 'a', visits: 4 },
      { visitor_key: 'b', visits: 4 },
      { visitor_key: 'c', visits: 2 },
      { visitor_key: 'd', visits: 2 },
      { visitor_key: 'e', visits: 2 },
    ]);
  });

  it('answers as the loop does for random batches of known and new visitors, under a cap and without', async () => {
    // A fixed seed: the same batches every run, with repeats, known and new keys mixed in every proportion.
    let seed = 23;
    const next = (bound: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % bound;
    };
    for (const policies of [{}, { max_visits: 90 }]) {
      const batches = Array.from({ length: 30 }, (_, round) => Array.from({ length: 1 + next(12) }, () => `v${next(4 + round)}`));
      await expectSameAsLoop(policies, batches, { visits: 3, uniques: 2 });
    }
  });

  it('answers as the loop does for a full batch of 256 visitors, known and new', async () => {
    const keys = Array.from({ length: 256 }, (_, index) => `w${index}`);
    await expectSameAsLoop({}, [keys.slice(0, 128), keys, [...keys].reverse()]);
  });

  it('answers the same after the migration is undone and done again', async () => {
    const runner = { query: (sql: string) => db.query(sql) } as never;
    const numbersNewVisitorsOnly = async () => {
      const [{ definition }] = await db.query(
        `SELECT pg_get_functiondef('share_admit_visits(uuid, text[], uuid[], text[])'::regprocedure) AS definition`,
      );
      return (definition as string).includes('FILTER (WHERE upserted.visits = counted.c)');
    };
    expect(await numbersNewVisitorsOnly()).toBe(true);
    await new NewVisitorNumbering1763700002100().down(runner);
    expect(await numbersNewVisitorsOnly()).toBe(false);
    await expectSameAsLoop({}, [
      ['a', 'b', 'a'],
      ['a', 'c'],
    ]);
    await new NewVisitorNumbering1763700002100().up(runner);
    expect(await numbersNewVisitorsOnly()).toBe(true);
    await expectSameAsLoop({}, [
      ['a', 'b', 'a'],
      ['a', 'c'],
    ]);
  });

  it('admits exactly up to a total cap within a batch, and consumes the share', async () => {
    const state = await expectSameAsLoop({ max_visits: 7 }, [['a', 'b', 'a'], ['c', 'c', 'd', 'e', 'f'], ['g']]);
    expect(state.share).toMatchObject({ visit_count: 7, consumed: true });
  });

  it('continues from existing counts', async () => {
    await expectSameAsLoop({ max_visits: 20 }, [['x', 'y', 'x']], { visits: 18, uniques: 5 });
  });

  it('refuses revoked, consumed and expired shares as the loop does', async () => {
    for (const policies of [{ revoked: true }, { consumed: true }, { expired: true }, { expired: true, max_visits: 1 }]) {
      await expectSameAsLoop(policies, [['a', 'b']]);
    }
    await expectSameAsLoop({ max_visits: 2, expired: true }, [['a']], { visits: 2, uniques: 1 });
  });

  it('still judges a share with a per-visitor cap visit by visit', async () => {
    const state = await expectSameAsLoop({ per_visitor_max_visits: 2 }, [
      ['a', 'a', 'a', 'b'],
      ['a', 'b', 'b'],
    ]);
    expect(state.share).toMatchObject({ visit_count: 4, unique_visit_count: 2 });
  });
});
