import { createHash, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../../database/test-database.fixture.js';
import {
  AgreementAcceptancesRepository,
  deleteAcceptancesOlderThan,
  type NewAcceptance,
} from './agreement-acceptances.repository.js';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe(AgreementAcceptancesRepository.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let sut: AgreementAcceptancesRepository;
  let shareId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.dataSource;
    sut = new AgreementAcceptancesRepository(db);
    const user = await createTestUser(db);
    const [file] = (await db.query(`INSERT INTO files (user_id, name, kind) VALUES ($1, 'a.md', 'MARKDOWN') RETURNING id`, [
      user.id,
    ])) as Array<{ id: string }>;
    const [share] = (await db.query(
      `INSERT INTO shares (user_id, file_id, token, agreement_text) VALUES ($1, $2, $3, 'Terms') RETURNING id`,
      [user.id, file!.id, randomUUID().replace(/-/g, '')],
    )) as Array<{ id: string }>;
    shareId = share!.id;
  });
  afterAll(async () => {
    await database?.drop();
  });

  const acceptance = (overrides: Partial<NewAcceptance> = {}): NewAcceptance => ({
    shareId,
    visitorId: 'visitor-1',
    userId: null,
    name: 'Ann',
    email: null,
    ipPrefix: '198.51.100.0/24',
    userAgent: 'UA',
    agreementSha256: digest('Terms'),
    ...overrides,
  });

  it('records one acceptance per visitor and text, however many arrive at once', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => sut.accept(acceptance({ name: `Ann ${i}` }))));
    const rows: unknown[] = await db.query('SELECT 1 FROM share_acceptances WHERE share_id = $1', [shareId]);
    expect(rows).toHaveLength(1);
    expect(await sut.accepted(shareId, 'visitor-1', digest('Terms'))).toEqual({ name: expect.stringMatching(/^Ann \d+$/) });
    expect(await sut.accepted(shareId, 'visitor-2', digest('Terms'))).toBeNull();
  });

  it('records nothing for a text the share no longer asks for', async () => {
    await sut.accept(acceptance({ visitorId: 'visitor-3', agreementSha256: digest('Old terms') }));
    expect(await sut.accepted(shareId, 'visitor-3', digest('Old terms'))).toBeNull();
    expect(await sut.text(shareId, digest('Old terms'))).toBeNull();
    expect(await sut.text(shareId, digest('Terms'))).toBe('Terms');
  });

  it('deletes acceptances past the retention, and only those', async () => {
    await sut.accept(acceptance({ visitorId: 'visitor-old' }));
    await db.query(`UPDATE share_acceptances SET at = now() - interval '40 days' WHERE visitor_id = 'visitor-old'`);
    expect(await deleteAcceptancesOlderThan(db, 30, 1)).toBe(1);
    const left: Array<{ visitor_id: string }> = await db.query('SELECT visitor_id FROM share_acceptances ORDER BY visitor_id');
    expect(left.map((row) => row.visitor_id)).toEqual(['visitor-1']);
  });
});
