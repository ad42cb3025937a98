import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../database/test-database.fixture.js';
import { AuditAction } from './audit-action.js';
import { AuditRepository } from './audit.repository.js';

describe(AuditRepository.name, () => {
  let database: TestDatabase;
  let sut: AuditRepository;

  beforeAll(async () => {
    database = await createTestDatabase();
    sut = new AuditRepository(database.dataSource);
  });
  afterAll(() => database?.drop());

  it('deletes only events older than the retention, and pages newest first by cursor', async () => {
    const user = await createTestUser(database.dataSource);
    for (let i = 0; i < 12; i++) await sut.insert({ userId: user.id, action: AuditAction.tokenCreated, details: { n: i } });
    await database.dataSource.query(
      `UPDATE audit_events SET created_at = now() - interval '400 days' WHERE user_id = $1 AND (details->>'n')::int < 3`,
      [user.id],
    );

    expect(await sut.deleteOlderThan(365)).toBe(3);
    expect(await sut.deleteOlderThan(365)).toBe(0);

    const first = await sut.page(user.id, 5);
    const second = await sut.page(user.id, 5, first[4]!.id);
    expect([...first, ...second].map((event) => event.details.n)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3]);
  });
});
