// Runs every benchmark in turn and prints each table; every figure stands beside a
// baseline measured in the same run. Results with machine details go to bench/RESULTS.md.
import { machine } from './support.mjs';

const suites = [
  ['share view (uncapped and capped) vs bare Fastify', () => import('./view.mjs')],
  ['GET /v1/me vs bare Fastify', () => import('./me.mjs')],
  ['upload → CLEAN (builtin scanner and clamd)', () => import('./upload.mjs')],
  ['validate 1 MB Markdown vs markdown-it', () => import('./validate.mjs')],
  ['api memory idle and under view load', () => import('./memory.mjs')],
];

console.log(`Sharedown benchmarks on ${machine()}`);
const only = process.argv.slice(2);
let failed = 0;
for (const [name, load] of suites) {
  if (only.length && !only.some((word) => name.includes(word))) continue;
  console.log(`\n### ${name}`);
  try {
    await (await load()).run();
  } catch (error) {
    failed += 1;
    console.error(`${name} failed: ${error instanceof Error ? error.stack : error}`);
  }
}
process.exit(failed ? 1 : 0);
