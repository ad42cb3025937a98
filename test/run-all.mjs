// The whole suite: unit tests, service tests against the machine's PostgreSQL, then the e2e
// suite on the embedded default (embedded PostgreSQL, PostgreSQL-backed queue), then again on
// the machine's PostgreSQL and Redis when they answer (as on CI and the development machines).
// It ends with a summary of every step and the name and first error line of every failed test,
// so that the last lines of a long log say what failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const reports = join(import.meta.dirname, 'artifacts', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

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

const steps = [];

/** Runs one step, and records how it ended; a command that cannot start counts as failed. */
function step(name, command, options = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit', ...options });
  if (result.error) console.error(`${name}: could not run ${command[0]}: ${result.error.message}`);
  const status = result.status ?? (result.signal ? `signal ${result.signal}` : 'not started');
  steps.push({ name, status, seconds: Math.round((Date.now() - started) / 1000), report: options.report });
}

function vitest(name, args, env, cwd) {
  const report = join(reports, `${name.replace(/[^a-z0-9]+/gi, '-')}.json`);
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  step(name, ['npx', 'vitest', 'run', ...args, ...reporters], {
    cwd,
    env: { ...process.env, ...env },
    report,
  });
}

// The committed OpenAPI document and client must match the code, the document must pass Redocly's
// recommended rules (redocly.yaml, exceptions in .redocly.lint-ignore.yaml), and the code must lint.
// Redocly asks the npm registry for a newer version on a terminal unless told not to.
const quietRedocly = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
step('contract', ['node', '../scripts/contract-check.mjs']);
// The committed table and view types must be those the migrations give (`npm run db:types`); they
// are generated on the PostgreSQL the service tests use.
if (await reachable(5432)) {
  step('database types', ['node', '../scripts/db-types-check.mjs']);
} else {
  console.log('PostgreSQL is not reachable on 127.0.0.1:5432: skipped the check of the database types');
}
step('openapi lint', ['npx', 'redocly', 'lint', '--config', '../redocly.yaml', '../libs/contract/openapi.json'], {
  env: quietRedocly,
});
step('lint', ['npx', 'eslint', '..']);
// One formatting everywhere (.prettierrc, .prettierignore): `npm run format` fixes what this finds.
step('format', ['npx', 'prettier', '--check', '--log-level', 'warn', '.'], { cwd: '..' });
// The builds compile the sources without their tests, and vitest strips types unchecked: each
// package's tsconfig.json takes the tests in too (tsconfig.build.json leaves them out). The console's
// build (vite) strips types without checking them, so vue-tsc checks it whole.
for (const dir of ['apps/api', 'apps/cli', 'apps/mcp', 'libs/contract', 'libs/i18n']) {
  step(`types ${dir}`, ['npx', 'tsc', '--noEmit', '-p', 'tsconfig.json'], { cwd: join(root, dir) });
}
step('console types', ['npx', 'vue-tsc', '--noEmit', '-p', 'tsconfig.json'], { cwd: '../apps/console' });
vitest('unit', ['--project', 'unit'], { SHAREDOWN_TEST_BACKEND: 'embedded' });
// Services against a real PostgreSQL (the *.pg.spec.ts files), each file in a database of its own.
if (await reachable(5432)) {
  vitest('pg', ['--project', 'pg'], { SHAREDOWN_TEST_BACKEND: 'services' });
} else {
  console.log('PostgreSQL is not reachable on 127.0.0.1:5432: skipped the service tests against PostgreSQL');
}
vitest('console components', ['--passWithNoTests'], {}, '../apps/console');
vitest('e2e embedded', ['--project', 'e2e'], { SHAREDOWN_TEST_BACKEND: 'embedded' });
if ((await reachable(5432)) && (await reachable(6379))) {
  vitest('e2e services', ['--project', 'e2e'], { SHAREDOWN_TEST_BACKEND: 'services' });
} else {
  console.log('PostgreSQL or Redis is not reachable on 127.0.0.1: skipped the services run of the e2e suite');
}

/** The failed tests of a vitest JSON report, as "file > test: first line of the error". */
function failedTests(report) {
  if (!report || !existsSync(report)) return [];
  const { testResults = [] } = JSON.parse(readFileSync(report, 'utf8'));
  return testResults.flatMap((file) => {
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    const lines = failed.map(
      (test) => `${relative(root, file.name)} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`,
    );
    // A file that failed to load, or whose hooks failed, has no failed test of its own.
    if (!failed.length && file.status === 'failed') lines.push(`${relative(root, file.name)}: ${firstLine(file.message)}`);
    return lines;
  });
}

function firstLine(text) {
  return (
    String(text ?? '')
      .split('\n')
      .find((line) => line.trim()) ?? ''
  );
}

/** Tests that failed first and passed on their retry: the run passes, but they are unsteady. */
function retriedTests(report) {
  if (!report || !existsSync(report)) return [];
  const { testResults = [] } = JSON.parse(readFileSync(report, 'utf8'));
  return testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'passed' && test.failureMessages?.length)
      .map((test) => `${relative(root, file.name)} > ${test.fullName}: ${firstLine(test.failureMessages[0])}`),
  );
}

console.log('\n=== summary ===');
for (const { name, status, seconds, report } of steps) {
  console.log(`${status === 0 ? 'ok    ' : 'FAILED'} ${name} (${seconds} s${status === 0 ? '' : `, exit ${status}`})`);
  if (status !== 0) for (const line of failedTests(report)) console.log(`       failed: ${line}`);
  for (const line of retriedTests(report)) console.log(`       passed on its retry: ${line}`);
}
const failed = steps.filter(({ status }) => status !== 0).length;
console.log(failed ? `${failed} of ${steps.length} steps failed` : `all ${steps.length} steps passed`);
process.exit(failed ? 1 : 0);
