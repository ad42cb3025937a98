import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { DataSource } from 'typeorm';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  TRANSIENT_TABLES,
  type BackupHeader,
  type SectionLine,
  type TrailerLine,
} from './backup-format.js';
import { BackupRepository } from './backup.repository.js';

export interface BackupSummary {
  file: string;
  rows: Record<string, number>;
}

/**
 * Writes the whole instance behind `databaseUrl` to `out`: every table but the transient ones,
 * from one snapshot. The archive appears under its name only when complete (it is written
 * beside it first), readable by its owner alone: it holds password hashes, token digests,
 * every document and the session secret.
 */
export async function writeBackup(databaseUrl: string, out: string, sessionSecret: string | null): Promise<BackupSummary> {
  const dataSource = new DataSource({ type: 'postgres', url: databaseUrl, poolSize: 1 });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  const partial = `${out}.partial`;
  const rows: Record<string, number> = {};
  try {
    const repository = new BackupRepository(runner);
    await repository.beginSnapshot();
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      migrations: await repository.appliedMigrations(),
      sessionSecret,
    };
    const tables = (await repository.tables()).filter((table) => !TRANSIENT_TABLES.has(table));
    async function* lines(): AsyncGenerator<string> {
      yield `${JSON.stringify(header)}\n`;
      for (const table of tables) {
        const section: SectionLine = ['table', table, await repository.columns(table)];
        yield `${JSON.stringify(section)}\n`;
        rows[table] = 0;
        for await (const batch of repository.rows(table)) {
          rows[table] += batch.length;
          yield `${batch.join('\n')}\n`;
        }
      }
      const trailer: TrailerLine = ['end', rows];
      yield `${JSON.stringify(trailer)}\n`;
    }
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(partial, { mode: 0o600 }));
    await repository.commit();
    await rename(partial, out);
    return { file: out, rows };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}
