import { allocateRedisDb, createMachineDatabase, freePort, startApp, type RunningApp } from './app.js';
import { startClamd, type Clamd } from './clamd.js';
import { startReverseProxy, type ReverseProxy } from './reverse-proxy.js';

/**
 * The address the reverse proxy connects to the replicas from, and the only one they trust
 * (TRUST_PROXY). Tests that talk to a replica directly come from 127.0.0.1, so they play an
 * untrusted client on the same machine.
 */
export const PROXY_ADDRESS = '127.0.0.2';

export interface TopologyProcess {
  readonly name: string;
  readonly role: 'api' | 'worker';
  /** The fixed port (kept across restarts, so the proxy finds a restarted replica). */
  readonly port: number;
  /** Direct address of the process, bypassing the proxy (api replicas only). */
  readonly baseUrl: string;
  readonly running: boolean;
  /** Output of every run of this process so far. */
  logs(): string;
  /** Starts it (with extra env for this run only); resolves once it is ready. */
  start(env?: Record<string, string>): Promise<void>;
  /** SIGTERM: drains, then exits. */
  stop(): Promise<void>;
  /** SIGKILL: gone at once, nothing drained. */
  kill(): Promise<void>;
  restart(env?: Record<string, string>): Promise<void>;
}

export interface Topology {
  /** PUBLIC_URL: the console and API, through the reverse proxy. */
  url: string;
  /** RENDER_URL: share views, through another listener of the same proxy (another origin, as a sibling host name would be). */
  renderUrl: string;
  proxy: ReverseProxy;
  replicas: TopologyProcess[];
  worker: TopologyProcess;
  clamd: Clamd;
  databaseUrl: string;
  redisUrl: string;
  sessionSecret: string;
  close(): Promise<void>;
}

function processHandle(name: string, role: 'api' | 'worker', port: number, env: Record<string, string>): TopologyProcess {
  let app: RunningApp | undefined;
  const history: string[] = [];
  const finish = async () => {
    if (!app) return;
    const done = app;
    app = undefined;
    await done.cleanup();
    history.push(done.logs());
  };
  const handle: TopologyProcess = {
    name,
    role,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    get running() {
      return app !== undefined && app.process.exitCode === null;
    },
    logs: () => [...history, app?.logs() ?? ''].join(''),
    async start(extra = {}) {
      if (app) throw new Error(`${name} is already running`);
      app = await startApp({ backend: 'services', role, env: { ...env, PORT: String(port), ...extra } });
    },
    async stop() {
      await finish();
    },
    async kill() {
      await app?.stop('SIGKILL');
      await finish();
    },
    async restart(extra) {
      await finish();
      await handle.start(extra);
    },
  };
  return handle;
}

/**
 * The production topology on one machine: a reverse proxy in front of `replicas` ROLE=api
 * processes, one ROLE=worker process, all on one fresh database of the machine's PostgreSQL, one
 * Redis database and a private clamd, sharing SESSION_SECRET and trusting only the proxy.
 */
export async function startTopology(options: { replicas?: number; env?: Record<string, string> } = {}): Promise<Topology> {
  const count = options.replicas ?? 2;
  const [databaseUrl, redisUrl, clamd] = await Promise.all([createMachineDatabase(), allocateRedisDb(), startClamd()]);
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const proxy = await startReverseProxy({
    backends: ports.map((port) => ({ host: '127.0.0.1', port })),
    localAddress: PROXY_ADDRESS,
  });
  const renderUrl = await proxy.listen();
  const sessionSecret = `topology-session-secret-${Date.now()}-0123456789abcdef`;
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    CLAMD_HOST: clamd.host,
    CLAMD_PORT: String(clamd.port),
    SESSION_SECRET: sessionSecret,
    PUBLIC_URL: proxy.url,
    RENDER_URL: renderUrl,
    TRUST_PROXY: PROXY_ADDRESS,
    ...options.env,
  };
  const replicas = ports.map((port, i) => processHandle(`api-${String.fromCharCode(97 + i)}`, 'api', port, env));
  const worker = processHandle('worker', 'worker', await freePort(), env);
  const everything = [...replicas, worker];
  const close = async () => {
    await Promise.all(everything.map((handle) => handle.stop().catch(() => undefined)));
    await proxy.close();
    await clamd.cleanup();
  };
  try {
    // Started together, as an orchestrator would: migrations take turns under their advisory lock.
    await Promise.all(everything.map((handle) => handle.start()));
  } catch (error) {
    await close();
    throw error;
  }
  return { url: proxy.url, renderUrl, proxy, replicas, worker, clamd, databaseUrl, redisUrl, sessionSecret, close };
}
