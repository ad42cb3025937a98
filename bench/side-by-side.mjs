// Two builds (or two sets of Node.js arguments) of the embedded default, loaded at the same moments:
// CPU per view of each, run by run, and the paired difference.
//
// Runs of one build minutes apart on these virtual machines moved by a third with no change
// (bench/PROFILE.md, twelfth round), far more than a change worth a few per cent. Two processes that
// serve the same view at the same time share whatever state the machine is in, so their difference
// keeps what the drift hides. Each side is one ROLE=all process with its own embedded PostgreSQL
// (no shared Redis or database), driven by its own wrk at the benchmark's 50 connections; the two
// sides run concurrently, so each answers about half its usual rate. It compares; it judges nothing
// (the judge is `npm run bench`).
//
// Usage: SIDE_B_MAIN=/other/build/apps/api/dist/main.js SIDE_B_NODE_ARGS='--flag' node bench/side-by-side.mjs [runs]
//   A is this checkout's build as `npm start` runs it; B is SIDE_B_MAIN (default: the same build),
//   started with the Node.js arguments SIDE_B_NODE_ARGS (space-separated) in place of the
//   launchers' own (scripts/api-heap.mjs) when it is set, even to nothing, and with the
//   environment SIDE_B_ENV ('KEY=value KEY2=value', space-separated) added to its own.
//   Runs: 6, 8 s each. `SIDE_B_NODE_ARGS= node bench/side-by-side.mjs` compares the api with and
//   without the launchers' arguments; `SIDE_B_ENV=LOG_LEVEL=error node bench/side-by-side.mjs`
//   prices npm start's request log.
import { cpuMicrosPerAnswer, createUser, markdownOf, median, requireWrk, startEmbedded, uploadShared, wrk } from './support.mjs';

requireWrk();
const RUNS = Number(process.argv[2] ?? 6);
const RUN_SECONDS = 8;
const nodeArgsB = process.env.SIDE_B_NODE_ARGS?.split(/\s+/).filter(Boolean);
const mainB = process.env.SIDE_B_MAIN;
const envB = Object.fromEntries(
  (process.env.SIDE_B_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
if (!mainB && !nodeArgsB && !process.env.SIDE_B_ENV) {
  console.error(
    'Set SIDE_B_MAIN (another build), SIDE_B_NODE_ARGS (Node.js arguments, may be empty) or SIDE_B_ENV (its environment) for side B.',
  );
  process.exit(2);
}

const sides = [
  { name: 'A', label: "this build with the launchers' arguments", app: await startEmbedded() },
  {
    name: 'B',
    label:
      `${mainB ?? 'this build'} with ${nodeArgsB ? `Node.js arguments '${nodeArgsB.join(' ')}'` : "the launchers' arguments"}` +
      (process.env.SIDE_B_ENV ? ` and ${process.env.SIDE_B_ENV}` : ''),
    app: await startEmbedded({
      ...(mainB ? { main: mainB } : {}),
      ...(nodeArgsB ? { launcherArgs: nodeArgsB } : {}),
      env: envB,
    }),
  },
];
try {
  for (const side of sides) {
    const user = await createUser(side.app.baseUrl);
    side.url = (await uploadShared(side.app.baseUrl, user.token, 'bench.md', markdownOf(), {})).url;
    side.runs = [];
  }
  // Warm-up of both at once, as they are measured: JIT, pools, the rendering cache.
  await Promise.all(sides.map((side) => wrk(side.url, { duration: 12 })));
  console.log(`A: ${sides[0].label}\nB: ${sides[1].label}\n`);
  console.log('run  side  views/s  p99 ms  api µs  pg µs  µs/view');
  const differences = [];
  for (let run = 1; run <= RUNS; run++) {
    const results = await Promise.all(
      sides.map((side) =>
        wrk(side.url, {
          duration: RUN_SECONDS,
          cpu: { api: async () => [side.app.pid], postgres: () => side.app.postgresPids() },
        }),
      ),
    );
    const totals = results.map((result, i) => {
      if (result.errors || result.status)
        throw new Error(`side ${sides[i].name}: ${result.errors} socket errors, ${result.status} error answers`);
      // µs of CPU per view: the process and its PostgreSQL backends, as the benchmark counts them.
      const total = cpuMicrosPerAnswer(result);
      const api = result.cpuPer1000.api * 1000;
      sides[i].runs.push(total);
      const cells = [String(run).padEnd(4), sides[i].name.padEnd(5), String(Math.round(result.rps)).padStart(7)];
      cells.push(result.p99.toFixed(1).padStart(6), api.toFixed(1).padStart(6), (total - api).toFixed(1).padStart(5));
      console.log(`${cells.join('  ')}  ${total.toFixed(1).padStart(7)}`);
      return total;
    });
    differences.push(totals[1] - totals[0]);
  }
  const cheaper = differences.filter((d) => d < 0).length;
  console.log(
    `\nµs per view, median of ${RUNS} runs: A ${median(sides[0].runs).toFixed(1)}, B ${median(sides[1].runs).toFixed(1)}; ` +
      `B − A per run: ${differences.map((d) => d.toFixed(1)).join(', ')} ` +
      `(median ${median(differences).toFixed(1)}, B cheaper in ${cheaper} of ${RUNS})`,
  );
} finally {
  for (const side of sides) await side.app.stop();
}
