#!/usr/bin/env node
// One entry point for the README's commands on a fresh clone with only Node.js and npm:
// it installs the workspace with pnpm (fetched through npx when absent), builds, then
// starts the service, runs the tests or the benchmarks, or backs up or restores the instance.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_NODE_ARGS, apiNodeOptions } from './api-heap.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM_VERSION = '12.21.0';
const command = process.argv[2] ?? 'start';

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0) return ['pnpm'];
  return ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}

function run(argv, env = process.env) {
  const [bin, ...args] = argv;
  const result = spawnSync(bin, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const pnpm = pnpmCommand();
const marker = join(root, 'node_modules', '.modules.yaml');
const lockfile = join(root, 'pnpm-lock.yaml');
const backupCli = join(root, 'apps/api/dist/backup/backup-cli.js');
// Backup and restore run against an installed service: they build only what is missing.
const maintenance = command === 'backup' || command === 'restore';
if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lockfile).mtimeMs) {
  run([...pnpm, 'install', '--frozen-lockfile']);
}
if (command === 'pack') {
  // The client packages need only the libraries and the two clients, not the api and console.
  run([...pnpm, '-r', '--filter', './libs/*', '--filter', '@sharedown/cli', '--filter', '@sharedown/mcp', 'run', 'build']);
} else if (!maintenance || !existsSync(backupCli)) {
  run([...pnpm, 'run', 'build']);
}

if (command === 'start') {
  const child = spawn(process.execPath, [...API_NODE_ARGS, join(root, 'apps/api/dist/main.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: apiNodeOptions(process.env.NODE_OPTIONS) },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
} else if (command === 'test') {
  run([...pnpm, '--filter', '@sharedown/test', 'run', 'test']);
} else if (command === 'bench') {
  // `npm run bench view` runs the benchmarks whose name has one of the words given.
  run([...pnpm, '--filter', '@sharedown/bench', 'run', 'bench', ...process.argv.slice(3)]);
} else if (command === 'pack') {
  run([process.execPath, join(root, 'scripts/pack.mjs'), ...process.argv.slice(3)]);
} else if (maintenance) {
  run([process.execPath, backupCli, command, ...process.argv.slice(3)]);
} else {
  console.error(`unknown command ${command}: use start, test, bench, pack, backup or restore`);
  process.exit(2);
}
