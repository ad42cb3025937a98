import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './app.js';

/**
 * A private redis-server on a free loopback port, so outage tests never touch the shared one.
 * With `dataDir` it keeps an append-only file there, written before each write is answered, as a
 * production Redis keeps its data (docker/compose.yaml): a restart on the same directory finds
 * every job and bucket it had acknowledged.
 */
export async function startRedis(
  port?: number,
  options: { dataDir?: string } = {},
): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const chosen = port ?? (await freePort());
  const persistence = options.dataDir
    ? ['--dir', options.dataDir, '--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', ...persistence],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ready = await new Promise<boolean>((resolve) => {
      import('node:net').then(({ connect }) => {
        const socket = connect(chosen, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
    });
    if (ready) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('redis-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
