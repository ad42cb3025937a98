import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import { createSharedownClient, unwrap, type SharedownClient } from '@sharedown/contract';

/**
 * The built api. SHAREDOWN_TEST_API_MAIN points the suites at another build, such as a copy
 * broken on purpose to watch a test fail, without touching the tree's own dist.
 */
const API_MAIN = process.env.SHAREDOWN_TEST_API_MAIN ?? fileURLToPath(new URL('../../apps/api/dist/main.js', import.meta.url));
export const MACHINE_PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const MACHINE_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export type Backend = 'embedded' | 'services';
export const backend: Backend = process.env.SHAREDOWN_TEST_BACKEND === 'services' ? 'services' : 'embedded';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export type Role = 'all' | 'api' | 'worker';

export interface StartOptions {
  env?: Record<string, string>;
  backend?: Backend;
  /** Reuse a data dir (restart tests). */
  dataDir?: string;
  /**
   * The process role (ROLE). A `worker` has no HTTP listener: it is ready once it logs
   * 'worker started' (so its LOG_LEVEL defaults to info), not when /healthz answers.
   */
  role?: Role;
}

export interface RunningApp {
  baseUrl: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  logs: () => string;
  process: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** A PostgreSQL connection string to the app's database (embedded or machine). */
  databaseUrl(): Promise<string>;
  cleanup(): Promise<void>;
}

/** A fresh database on the machine's PostgreSQL; its connection string. */
export async function createMachineDatabase(): Promise<string> {
  const name = `sharedown_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const client = new pg.Client({ connectionString: MACHINE_PG });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(MACHINE_PG);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A Redis logical database of its own, so parallel apps never share queues or buckets. */
export async function allocateRedisDb(): Promise<string> {
  const redis = new Redis(MACHINE_REDIS);
  const n = ((await redis.incr('sharedown:test:next-db')) % 15) + 1;
  await redis.quit();
  const isolated = new Redis(`${MACHINE_REDIS}/${n}`);
  await isolated.flushdb();
  await isolated.quit();
  return `${MACHINE_REDIS}/${n}`;
}

/**
 * Starts the built api (`apps/api/dist/main.js`) as a real process and waits for /healthz
 * (a `worker` role: for its 'worker started' line). `env.PORT` keeps a port across restarts.
 */
export async function startApp(options: StartOptions = {}, attempt = 1): Promise<RunningApp> {
  const mode = options.backend ?? backend;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'sharedown-e2e-')));
  const port = options.env?.PORT ? Number(options.env.PORT) : await freePort();
  const worker = (options.role ?? options.env?.ROLE) === 'worker';
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: worker ? 'info' : 'warn',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...options.env,
    ...(options.role ? { ROLE: options.role } : {}),
  };
  if (mode === 'services') {
    env.DATABASE_URL ??= await createMachineDatabase();
    env.REDIS_URL ??= await allocateRedisDb();
  }
  let output = '';
  const child = spawn(process.execPath, [API_MAIN], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      // A port found free can be taken by another test's process before the api binds it: a port
      // this helper chose is chosen again (a fixed env.PORT is the caller's to keep).
      if (output.includes('EADDRINUSE') && !options.env?.PORT && attempt < 3) {
        if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
        return startApp(options, attempt + 1);
      }
      throw new Error(`api exited with ${child.exitCode}:\n${output}`);
    }
    if (worker) {
      if (output.includes('worker started')) break;
    } else {
      try {
        const response = await fetch(`${baseUrl}/healthz`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`api did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  let embeddedUrl: string | undefined;
  return {
    baseUrl,
    port,
    dataDir,
    env,
    process: child,
    logs: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
    async databaseUrl() {
      if (env.DATABASE_URL) return env.DATABASE_URL;
      embeddedUrl ??= await findEmbeddedUrl(dataDir);
      return embeddedUrl;
    },
    async cleanup() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        // The service bounds its own drain; this only guards the suite against a hang.
        const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(killer);
      }
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function findEmbeddedUrl(dataDir: string): Promise<string> {
  const { port } = JSON.parse(await readFile(join(dataDir, 'embedded-postgres.json'), 'utf8')) as { port: number };
  return `postgres://sharedown:sharedown@127.0.0.1:${port}/sharedown`;
}

let userCounter = 0;

export interface TestUser {
  email: string;
  password: string;
  cookie: string;
  userId: string;
  segment: string;
  token: string;
  tokenId: string;
  /** Typed client authenticated with the bearer token. */
  api: SharedownClient;
  /** Typed client authenticated with the console session cookie. */
  console: SharedownClient;
}

export function sessionCookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  const match = /sharedown_session=([^;]+)/.exec(header);
  if (!match) throw new Error(`no session cookie in ${header}`);
  return `sharedown_session=${match[1]}`;
}

/** Registers a fresh user, signs in, and creates an API token (rate 600/min unless given). */
export async function createUser(
  baseUrl: string,
  options: { rateLimitPerMinute?: number; email?: string } = {},
): Promise<TestUser> {
  const email = options.email ?? `user${process.pid}x${++userCounter}x${Date.now()}@example.com`;
  const password = 'correct horse battery';
  const anonymous = createSharedownClient({ baseUrl });
  const registered = await anonymous.POST('/api/auth/register', { body: { email, password } });
  if (!registered.response.ok)
    throw new Error(`register failed: ${registered.response.status} ${JSON.stringify(registered.error)}`);
  const cookie = sessionCookieOf(registered.response);
  const consoleClient = createSharedownClient({ baseUrl, headers: { cookie } });
  const created = await unwrap(
    consoleClient.POST('/api/tokens', {
      body: { name: 'e2e', scopes: ['read', 'write'], rateLimitPerMinute: options.rateLimitPerMinute ?? 600 },
    }),
  );
  return {
    email,
    password,
    cookie,
    userId: registered.data!.user!.id,
    segment: registered.data!.user!.segment,
    token: created.plaintext,
    tokenId: created.token.id,
    api: createSharedownClient({ baseUrl, token: created.plaintext }),
    console: consoleClient,
  };
}
