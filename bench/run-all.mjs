// Runs every benchmark in turn and prints each table; every figure stands beside a baseline
// measured in the same run, judged by CPU per answer, with the load averages before and after.
// Run it with nothing else on the machine. The load comes from wrk in its own process; the run exits non-zero
// when wrk is missing or when any benchmark misses its target. Results go to bench/RESULTS.md.
import { loadLine, machine, missed, quietMachine, requireWrk } from './support.mjs';

const suites = [
  ['share view (policies, HTML pairs, 1,000,000 visits, memory) vs bare Fastify', () => import('./view.mjs')],
  ['GET /v1/me vs bare Fastify', () => import('./me.mjs')],
  ['upload → CLEAN (builtin scanner and clamd)', () => import('./upload.mjs')],
  ['validate 1 MB Markdown vs markdown-it', () => import('./validate.mjs')],
];

requireWrk();
console.log(`Sharedown benchmarks on ${machine()}`);
const only = process.argv.slice(2);
let failed = 0;
for (const [name, load] of suites) {
  if (only.length && !only.some((word) => name.includes(word))) continue;
  console.log(`\n### ${name}`);
  await quietMachine();
  console.log(loadLine('before'));
  try {
    await (await load()).run();
  } catch (error) {
    failed += 1;
    console.error(`${name} failed: ${error instanceof Error ? error.stack : error}`);
  }
  console.log(loadLine('after'));
}
if (missed.length) console.error(`\nMissed targets:\n- ${missed.join('\n- ')}`);
process.exit(failed || missed.length ? 1 : 0);
