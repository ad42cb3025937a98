import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './app.js';

const SIGNATURES = fileURLToPath(new URL('../fixtures/clamav/', import.meta.url));

/** The test strings the fixture database flags (assembled at run time so no file in the repo is itself flagged). */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
export const CUSTOM_TEST_SIGNATURE = 'SHAREDOWN-CLAMAV-' + 'TEST-SIGNATURE-7d1e4c2b';

export interface Clamd {
  host: string;
  port: number;
  log(): Promise<string>;
  /** Stops the daemon (the port stays reserved for a later start). */
  stop(): Promise<void>;
  start(): Promise<void>;
  cleanup(): Promise<void>;
}

export function clamdAvailable(): boolean {
  return spawnSync('sh', ['-c', 'command -v clamd'], { encoding: 'utf8' }).status === 0;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let answer = '';
    socket.setTimeout(1000);
    socket.once('connect', () => socket.write('zPING\0'));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.once('end', () => resolve(answer.startsWith('PONG')));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(port, '127.0.0.1');
  });
}

/**
 * A private clamd on a free loopback port, reading only the signature database shipped in
 * test/fixtures/clamav (EICAR and a custom test string). No freshclam, no system config.
 */
export async function startClamd(): Promise<Clamd> {
  const dir = await mkdtemp(join(tmpdir(), 'sharedown-clamd-'));
  const database = join(dir, 'db');
  await mkdir(database);
  await cp(SIGNATURES, database, { recursive: true });
  const port = await freePort();
  const config = join(dir, 'clamd.conf');
  await writeFile(
    config,
    [
      'Foreground yes',
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `DatabaseDirectory ${database}`,
      `TemporaryDirectory ${dir}`,
      `LogFile ${join(dir, 'clamd.log')}`,
      'Bytecode no',
      'SelfCheck 0',
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;

  const handle: Clamd = {
    host: '127.0.0.1',
    port,
    log: () => readFile(join(dir, 'clamd.log'), 'utf8').catch(() => ''),
    async start() {
      if (child && child.exitCode === null) return;
      let output = '';
      child = spawn('clamd', ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      const deadline = Date.now() + 30_000;
      while (!(await ping(port))) {
        if (child.exitCode !== null) throw new Error(`clamd exited with ${child.exitCode}: ${output}\n${await handle.log()}`);
        if (Date.now() > deadline) throw new Error(`clamd did not answer PING: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async cleanup() {
      await handle.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await handle.start();
  return handle;
}
