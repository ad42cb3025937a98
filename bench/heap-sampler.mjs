// Preloaded into the api by bench/heap-profile.mjs (`node --import`): V8's sampling heap profiler,
// started and stopped by SIGUSR2 from the outside, through the api's own inspector session.
// HEAP_SAMPLER_MODE picks which allocations a profile keeps: `all` (every sampled allocation,
// freed ones too), `promoted` (those not freed by a scavenge: moved to the old generation or still
// alive) or `live` (only those still alive when the profile stops). The profile is written to
// HEAP_SAMPLER_OUT when it stops (its tree of sites, without the samples).
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const MODES = {
  all: { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true },
  promoted: { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false },
  live: { samplingInterval: 64, includeObjectsCollectedByMajorGC: false, includeObjectsCollectedByMinorGC: false },
};
const mode = MODES[process.env.HEAP_SAMPLER_MODE];
const out = process.env.HEAP_SAMPLER_OUT;
if (!mode || !out) throw new Error('heap-sampler: set HEAP_SAMPLER_MODE (all, promoted or live) and HEAP_SAMPLER_OUT');

const session = new Session();
session.connect();
const post = (method, params = {}) =>
  new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));

let sampling = false;
process.on('SIGUSR2', () => {
  sampling = !sampling;
  if (sampling) void post('HeapProfiler.startSampling', mode);
  else
    void post('HeapProfiler.stopSampling').then(({ profile }) => {
      // The tree of sites only (not every sample), and renamed into place: the reader waits for the name.
      writeFileSync(`${out}.part`, JSON.stringify({ head: profile.head }));
      renameSync(`${out}.part`, out);
    });
});
