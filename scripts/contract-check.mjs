#!/usr/bin/env node
// Fails when the committed OpenAPI document or the generated client types differ from
// what the current api code produces.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = ['libs/contract/openapi.json', 'libs/contract/src/schema.ts'];
const before = files.map((file) => readFileSync(join(root, file), 'utf8'));
const result = spawnSync('pnpm', ['run', 'contract'], { cwd: root, stdio: 'inherit' });
// pnpm is on the PATH under `npm test` (scripts/run.mjs); run by hand without it, say so.
if (result.error) console.error(`could not run pnpm: ${result.error.message}`);
if (result.status !== 0) process.exit(result.status ?? 1);
const stale = files.filter((file, index) => readFileSync(join(root, file), 'utf8') !== before[index]);
if (stale.length) {
  console.error(`The committed contract is stale: ${stale.join(', ')}. Run \`pnpm contract\` and commit the result.`);
  process.exit(1);
}
console.log('contract is up to date');
