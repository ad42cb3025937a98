// The whole suite: unit tests, service tests against the machine's PostgreSQL, then the e2e
// suite on the embedded default (embedded PostgreSQL, PostgreSQL-backed queue), then again on
// the machine's PostgreSQL and Redis when they answer (as on CI and the development machines).
import { spawnSync } from 'node:child_process';
import { Socket } from 'node:net';

function reachable(port) {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(port, '127.0.0.1');
  });
}

function vitest(args, env) {
  console.log(`\n=== vitest ${args.join(' ')} (${env.SHAREDOWN_TEST_BACKEND}) ===`);
  const result = spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

let failed = 0;
// The committed OpenAPI document and client must match the code, the document must pass Redocly's
// recommended rules (redocly.yaml, exceptions in .redocly.lint-ignore.yaml), and the code must lint.
for (const [name, command] of [
  ['contract', ['node', '../scripts/contract-check.mjs']],
  ['openapi lint', ['npx', 'redocly', 'lint', '--config', '../redocly.yaml', '../libs/contract/openapi.json']],
  ['lint', ['npx', 'eslint', '..']],
]) {
  console.log(`\n=== ${name} ===`);
  // Redocly asks the npm registry for a newer version on a terminal unless told not to.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit', env });
  if (result.status !== 0) failed += 1;
}
// The console's build (vite) strips types without checking them; its component tests likewise.
console.log('\n=== console types ===');
failed += spawnSync('npx', ['vue-tsc', '--noEmit', '-p', 'tsconfig.json'], { cwd: '../apps/console', stdio: 'inherit' }).status
  ? 1
  : 0;
failed += vitest(['--project', 'unit'], { SHAREDOWN_TEST_BACKEND: 'embedded' }) ? 1 : 0;
// Services against a real PostgreSQL (the *.pg.spec.ts files), each file in a database of its own.
if (await reachable(5432)) {
  failed += vitest(['--project', 'pg'], { SHAREDOWN_TEST_BACKEND: 'services' }) ? 1 : 0;
} else {
  console.log('PostgreSQL is not reachable on 127.0.0.1:5432: skipped the service tests against PostgreSQL');
}
console.log('\n=== console component tests ===');
failed += spawnSync('npx', ['vitest', 'run', '--passWithNoTests'], { cwd: '../apps/console', stdio: 'inherit' }).status ? 1 : 0;
failed += vitest(['--project', 'e2e'], { SHAREDOWN_TEST_BACKEND: 'embedded' }) ? 1 : 0;
if ((await reachable(5432)) && (await reachable(6379))) {
  failed += vitest(['--project', 'e2e'], { SHAREDOWN_TEST_BACKEND: 'services' }) ? 1 : 0;
} else {
  console.log('PostgreSQL or Redis is not reachable on 127.0.0.1: skipped the services run of the e2e suite');
}
process.exit(failed ? 1 : 0);
