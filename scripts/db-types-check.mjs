#!/usr/bin/env node
// Fails when the committed table and view types (apps/api/src/database/schema.generated.ts)
// differ from what the current migrations give (scripts/db-types.mjs, on a throwaway database).
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TYPES_FILE, generateDbTypes } from './db-types.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let fresh;
try {
  fresh = await generateDbTypes();
} catch (error) {
  console.error(`could not generate the database types: ${error.message}`);
  process.exit(1);
}
if (readFileSync(join(root, TYPES_FILE), 'utf8') !== fresh) {
  console.error(`The committed database types are stale: ${TYPES_FILE}. Run \`npm run db:types\` and commit the result.`);
  process.exit(1);
}
console.log('database types are up to date');
