// CPU profile of the api under the view load: starts the api with `node --cpu-prof`, drives the
// uncapped 20 KB Markdown share with wrk (50 connections), stops the api so the profile is
// written, and prints the top self-time entries (the table kept in bench/PROFILE.md).
// Usage: node bench/profile.mjs [view|me] [seconds] [top]  (me: GET /v1/me over 300 tokens)
//   PROFILE_TOPOLOGY=embedded profiles the embedded default (npm start's one process) instead of
//   the production topology's api.
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spreadOver } from './me.mjs';
import { createUser, markdownOf, requireWrk, sourcePlace, startApi, startEmbedded, uploadShared, wrk } from './support.mjs';

/**
 * The samples of the measured run only: sample times count from the api's start, which the
 * benchmark noted; half a second is left off each end of the run.
 */
function measuredSamples(profile, window) {
  const kept = [];
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const ms = (t - profile.startTime) / 1000;
    if (ms >= window.from + 500 && ms <= window.to - 500) kept.push(profile.samples[i]);
  }
  return kept;
}

/** Self time per function (name + place), as a share of the measured run's samples. */
export function topSelfTime(profile, window, top) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const samples = measuredSamples(profile, window);
  const counts = new Map();
  for (const id of samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const total = samples.length;
  const self = new Map();
  for (const [id, count] of counts) {
    const { callFrame } = byId.get(id);
    const key = `${callFrame.functionName || '(anonymous)'}\t${sourcePlace(callFrame)}`;
    self.set(key, (self.get(key) ?? 0) + count);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, count]) => {
      const [name, where] = key.split('\t');
      return { share: ((count / total) * 100).toFixed(1), name, where };
    });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  requireWrk();
  const which = process.argv[2] ?? 'view';
  const seconds = Number(process.argv[3] ?? 10);
  const top = Number(process.argv[4] ?? 25);
  const dir = await mkdtemp(join(tmpdir(), 'sharedown-profile-'));
  const start = process.env.PROFILE_TOPOLOGY === 'embedded' ? startEmbedded : startApi;
  const api = await start({ nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  let result;
  let window;
  try {
    const user = await createUser(api.baseUrl, which === 'me' ? 300 : 1);
    const url =
      which === 'me' ? `${api.baseUrl}/v1/me` : (await uploadShared(api.baseUrl, user.token, 'profile.md', markdownOf(), {})).url;
    const lua = which === 'me' ? spreadOver(user.tokens) : '';
    await wrk(url, { duration: 3, lua });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const from = Date.now() - api.startedAt;
    result = await wrk(url, { duration: seconds, lua, cpu: { api: async () => [api.pid], postgres: () => api.postgresPids() } });
    window = { from, to: Date.now() - api.startedAt };
    await new Promise((resolve) => setTimeout(resolve, 2000));
  } finally {
    await api.stop();
  }
  const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('the api wrote no profile');
  const profile = JSON.parse(await readFile(join(dir, file), 'utf8'));
  // PROFILE_OUT keeps the whole profile (for Chrome DevTools or speedscope).
  if (process.env.PROFILE_OUT) await copyFile(join(dir, file), process.env.PROFILE_OUT);
  await rm(dir, { recursive: true, force: true });
  console.log(
    `${which} load: ${result.rps.toFixed(0)} req/s, api ${result.cpuPer1000.api.toFixed(3)} s CPU / 1k views, postgres ${result.cpuPer1000.postgres.toFixed(3)} s / 1k`,
  );
  console.log('\n| self % | function | where |\n|---|---|---|');
  for (const entry of topSelfTime(profile, window, top)) console.log(`| ${entry.share} | ${entry.name} | ${entry.where} |`);
}
