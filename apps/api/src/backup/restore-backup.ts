import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { TotpSecretBox } from '../auth/two-factor/totp-secret-box.js';
import { openMigratedDataSource } from '../database/data-source.js';
import { migrations } from '../database/migrations/index.js';
import { BACKUP_VERSION, isBackupHeader, type BackupHeader, type SectionLine, type TrailerLine } from './backup-format.js';
import { BackupRepository } from './backup.repository.js';

/** A restore that cannot go ahead; nothing was written. */
export class RestoreRefused extends Error {}

export interface RestoreSummary {
  rows: Record<string, number>;
  header: BackupHeader;
  /** How many two-factor secrets were sealed again for the target's session secret. */
  resealedTotpSecrets: number;
}

// A batch is sent when it holds this many rows or this many characters, whichever comes first.
const BATCH_ROWS = 500;
const BATCH_CHARS = 4 * 1024 * 1024;

/** The names TypeORM records for this version's migrations (each class names itself, as its `name`). */
function knownMigrationNames(): Set<string> {
  return new Set(migrations.map((Migration) => new Migration().name ?? Migration.name));
}

/**
 * Restores `file` into the empty instance behind `databaseUrl`: its migrations are applied
 * first, then every row goes in within one transaction, so a refused, damaged or cut-short
 * archive leaves the target exactly as it was. `targetSecret` is the session secret the target
 * will run with; when it differs from the archive's, two-factor secrets are sealed again for it.
 */
export async function restoreBackup(databaseUrl: string, file: string, targetSecret: string | null): Promise<RestoreSummary> {
  const input = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const lines = input[Symbol.asyncIterator]();
  const first = await lines.next();
  let header: unknown;
  try {
    header = first.done ? undefined : JSON.parse(first.value);
  } catch {
    header = undefined;
  }
  if (!isBackupHeader(header)) throw new RestoreRefused(`${file} is not a Sharedown backup`);
  if (header.version > BACKUP_VERSION) {
    throw new RestoreRefused(
      `${file} is backup format ${header.version}; this Sharedown reads up to ${BACKUP_VERSION}: upgrade first`,
    );
  }
  const known = knownMigrationNames();
  const unknown = header.migrations.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new RestoreRefused(`${file} comes from a newer Sharedown (migrations ${unknown.join(', ')}): upgrade first`);
  }

  const dataSource = await openMigratedDataSource(databaseUrl, { poolSize: 2 });
  const runner = dataSource.createQueryRunner();
  const repository = new BackupRepository(runner);
  const rows: Record<string, number> = {};
  try {
    await repository.begin();
    await repository.lockUsers();
    if ((await repository.countUsers()) > 0) {
      throw new RestoreRefused('the target instance already has accounts: restore only into an empty instance');
    }
    const targetTables = new Set(await repository.tables());
    const deferred = await repository.deferForeignKeys();

    let table: string | null = null;
    let columns: string[] = [];
    let batch: string[] = [];
    let batchChars = 0;
    let trailer: TrailerLine | null = null;
    const flush = async () => {
      if (table && batch.length) await repository.insertRows(table, columns, `[${batch.join(',')}]`);
      batch = [];
      batchChars = 0;
    };
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      const line = next.value;
      if (line === '') continue;
      if (trailer) throw new RestoreRefused(`${file} has data after its end`);
      if (line.startsWith('{')) {
        if (!table) throw new RestoreRefused(`${file} has a row outside any table`);
        batch.push(line);
        batchChars += line.length;
        rows[table] = (rows[table] ?? 0) + 1;
        if (batch.length >= BATCH_ROWS || batchChars >= BATCH_CHARS) await flush();
        continue;
      }
      await flush();
      const parsed = JSON.parse(line) as SectionLine | TrailerLine;
      if (parsed[0] === 'end') {
        trailer = parsed;
        table = null;
        continue;
      }
      const [, name, archived] = parsed;
      if (!targetTables.has(name)) throw new RestoreRefused(`${file} has a table this Sharedown does not know: ${name}`);
      const present = new Set(await repository.columns(name));
      table = name;
      columns = archived.filter((column) => present.has(column));
      rows[name] = 0;
    }
    if (!trailer) throw new RestoreRefused(`${file} is cut short (no end line): nothing was restored`);
    for (const [name, count] of Object.entries(trailer[1])) {
      if ((rows[name] ?? 0) !== count) {
        throw new RestoreRefused(`${file} is damaged: ${name} has ${rows[name] ?? 0} rows, its end line says ${count}`);
      }
    }

    let resealedTotpSecrets = 0;
    if (header.sessionSecret && targetSecret && header.sessionSecret !== targetSecret) {
      const from = new TotpSecretBox(header.sessionSecret);
      const to = new TotpSecretBox(targetSecret);
      for (const { id, sealed } of await repository.sealedTotpSecrets()) {
        const secret = from.open(sealed, id);
        if (secret === null) continue;
        await repository.setSealedTotpSecret(id, to.seal(secret, id));
        resealedTotpSecrets += 1;
      }
    }
    await repository.advanceIdentities();
    await repository.undeferForeignKeys(deferred);
    await repository.commit();
    return { rows, header, resealedTotpSecrets };
  } catch (error) {
    await repository.rollback().catch(() => undefined);
    if (
      error instanceof Error &&
      /unexpected end of file|incorrect header check|invalid/i.test(error.message) &&
      !(error instanceof RestoreRefused)
    ) {
      throw new RestoreRefused(`${file} is damaged (${error.message}): nothing was restored`);
    }
    throw error;
  } finally {
    input.close();
    await runner.release();
    await dataSource.destroy();
  }
}
