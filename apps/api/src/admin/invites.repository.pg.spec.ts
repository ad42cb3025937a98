import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, createTestUser, type TestDatabase } from '../database/test-database.fixture.js';
import { InvitesRepository, deleteStaleInvites } from './invites.repository.js';

describe(InvitesRepository.name, () => {
  let database: TestDatabase;
  let sut: InvitesRepository;

  beforeAll(async () => {
    database = await createTestDatabase();
    sut = new InvitesRepository(database.dataSource);
  });
  afterAll(() => database?.drop());

  it('lists newest first with their state, and the sweep deletes only those used or expired over 90 days ago', async () => {
    const admin = await createTestUser(database.dataSource);
    const make = (tokenHash: string, days = 7) =>
      database.dataSource.transaction((manager) => sut.insert(manager, { tokenHash, email: null, createdBy: admin.id, days }));
    const pending = await make('pending');
    const oldUsed = await make('old-used');
    const oldExpired = await make('old-expired');
    const recentExpired = await make('recent-expired');
    await database.dataSource.query(`UPDATE invites SET used_at = now() - interval '91 days' WHERE id = $1`, [oldUsed.id]);
    await database.dataSource.query(`UPDATE invites SET expires_at = now() - interval '91 days' WHERE id = $1`, [oldExpired.id]);
    await database.dataSource.query(`UPDATE invites SET expires_at = now() - interval '1 day' WHERE id = $1`, [recentExpired.id]);

    expect((await sut.list(10)).map((row) => [row.id, row.expired])).toEqual([
      [recentExpired.id, true],
      [oldExpired.id, true],
      [oldUsed.id, false],
      [pending.id, false],
    ]);
    expect(await deleteStaleInvites(database.dataSource)).toBe(2);
    expect(await deleteStaleInvites(database.dataSource)).toBe(0);
    expect((await sut.list(10)).map((row) => row.id)).toEqual([recentExpired.id, pending.id]);
  });
});
