import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './app.js';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of its own (initdb on a temporary directory, a free loopback port), so a
 * test may stop and crash it without touching the machine's server or another suite's database.
 */
export interface PrivatePostgres {
  port: number;
  /** The `postgres` database of the cluster, as its superuser. */
  adminUrl: string;
  /** A fresh database on the cluster; its connection string. */
  createDatabase(): Promise<string>;
  /** `fast` ends every session and checkpoints; `immediate` is a crash (recovery at the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /**
   * SIGSTOP to the server and every one of its processes: connections stay open and new ones are
   * accepted by the kernel, but nothing answers, as with a server that hangs or a network that
   * drops packets. `thaw()` lets it go on where it stopped.
   */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  cleanup(): Promise<void>;
}

async function postmasterOf(dataDir: string): Promise<number> {
  return Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

/** The children of the postmaster (backends, background workers), from /proc. */
async function childrenOf(postmaster: number): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === postmaster) pids.push(Number(entry));
  }
  return pids;
}

/** The directory of the newest installed server's binaries (Debian's layout). */
async function binaries(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql').catch(() => [] as string[]))
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('no PostgreSQL server under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

export function privatePostgresAvailable(): Promise<boolean> {
  return binaries().then(
    () => true,
    () => false,
  );
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await binaries();
  const root = await mkdtemp(join(tmpdir(), 'sharedown-pg-'));
  const data = join(root, 'data');
  // PostgreSQL refuses to run as root: as root, the cluster belongs to the system's postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(root, Number(stdout.trim()), Number(group.trim()));
  }
  const exec = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);

  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  const port = await freePort();
  // The socket goes into the cluster's own directory: nothing else on the machine shares it.
  const options = [
    `-p ${port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=200',
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c shared_buffers=32MB',
  ].join(' ');
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let running = false;
  let frozen: number[] = [];

  const handle: PrivatePostgres = {
    port,
    adminUrl,
    async createDatabase() {
      const name = `sharedown_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async start() {
      if (running) return;
      await exec('pg_ctl', ['-D', data, '-o', options, '-l', join(root, 'server.log'), '-w', '-t', '60', 'start']);
      running = true;
    },
    async stop(mode = 'fast') {
      if (!running) return;
      await exec('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    async freeze() {
      // The postmaster first: once it is stopped it starts no new backend that the list would miss.
      const postmaster = await postmasterOf(data);
      process.kill(postmaster, 'SIGSTOP');
      frozen = [postmaster, ...(await childrenOf(postmaster))];
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    async thaw() {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    async cleanup() {
      await handle.thaw().catch(() => undefined);
      await handle.stop('immediate').catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
  await handle.start();
  return handle;
}
