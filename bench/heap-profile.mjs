// Where a view's memory goes, by allocation site: the embedded default under the uncapped view
// (50 connections), with V8's sampling heap profiler running inside the api (bench/heap-sampler.mjs).
// The collector's cost follows two figures more than the bytes allocated: what a scavenge finds
// alive and copies, and what it promotes to the old generation, which full collections then mark
// (bench/PROFILE.md, fourteenth round). Three modes:
//   all       bytes allocated per view, by site, freed or not;
//   promoted  bytes per view that no scavenge freed: promoted, or alive at the end;
//   live      what is alive at a moment under load, of what was allocated in the 0.7 s before it
//             (the mean of 5 moments): roughly what a scavenge at that moment copies.
// Sites are the three innermost frames of the allocation's stack. Compares nothing and judges
// nothing; run it with nothing else on the machine like every benchmark.
// Usage: node bench/heap-profile.mjs [all|promoted|live] [top]
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createUser, markdownOf, requireWrk, sourcePlace, startEmbedded, uploadShared, wrk } from './support.mjs';

requireWrk();
const mode = process.argv[2] ?? 'all';
const top = Number(process.argv[3] ?? 30);
if (!['all', 'promoted', 'live'].includes(mode)) {
  console.error('Usage: node bench/heap-profile.mjs [all|promoted|live] [top]');
  process.exit(2);
}
const scratch = await mkdtemp(join(tmpdir(), 'sharedown-heap-profile-'));
const out = join(scratch, 'profile.json');
const app = await startEmbedded({
  nodeArgs: ['--import', new URL('./heap-sampler.mjs', import.meta.url).pathname],
  env: { HEAP_SAMPLER_MODE: mode, HEAP_SAMPLER_OUT: out },
});

/** Bytes by site over every profile taken. */
const bySite = new Map();

/** Toggles the sampler on, waits `ms`, toggles it off and adds the profile it writes to `bySite`. */
async function sample(ms) {
  await rm(out, { force: true });
  process.kill(app.pid, 'SIGUSR2');
  await sleep(ms);
  process.kill(app.pid, 'SIGUSR2');
  for (let waited = 0; !(await stat(out).catch(() => null)); waited += 100) {
    if (waited > 10_000) throw new Error('the api wrote no heap profile');
    await sleep(100);
  }
  const walk = (node, frames) => {
    const path = [...frames, `${node.callFrame.functionName || '(anonymous)'} ${sourcePlace(node.callFrame)}`];
    if (node.selfSize) {
      const site = path.slice(-3).reverse().join(' < ');
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, path);
  };
  walk(JSON.parse(await readFile(out, 'utf8')).head, []);
}

try {
  const user = await createUser(app.baseUrl);
  const url = (await uploadShared(app.baseUrl, user.token, 'bench.md', markdownOf(), {})).url;
  await wrk(url, { duration: 8 }); // warm-up: JIT, pools, the rendering cache
  let per;
  if (mode === 'live') {
    const MOMENTS = 5;
    const load = wrk(url, { duration: MOMENTS * 3 }); // whole seconds, for wrk
    for (let moment = 0; moment < MOMENTS; moment++) {
      await sleep(1_500);
      await sample(700);
    }
    const result = await load;
    if (result.errors || result.status) throw new Error(`${result.errors} socket errors, ${result.status} error answers`);
    per = { divisor: MOMENTS * 1024, unit: 'KB alive' };
  } else {
    const SECONDS = 6;
    const [result] = await Promise.all([wrk(url, { duration: SECONDS }), sample(SECONDS * 1_000)]);
    if (result.errors || result.status) throw new Error(`${result.errors} socket errors, ${result.status} error answers`);
    per = { divisor: result.rps * SECONDS, unit: 'B per view' };
  }
  const total = [...bySite.values()].reduce((sum, bytes) => sum + bytes, 0);
  console.log(`${mode}: ${(total / per.divisor).toFixed(0)} ${per.unit} in all; the largest sites:`);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(bytes / per.divisor).toFixed(mode === 'live' ? 1 : 0).padStart(8)}  ${site}`);
} finally {
  await app.stop();
  await rm(scratch, { recursive: true, force: true });
}
