/**
 * The api's heap: its cap and its collector, set by every launcher of the service: `npm start`
 * (scripts/run.mjs), the Docker image (docker/Dockerfile: the cap as an ENV line, the collector in
 * its CMD) and the benchmarks, which start the api as those do.
 *
 * V8 sizes its heap from the host's memory. On a host of 24 GiB it lets the old generation grow to
 * about four times what is live before a full collection, and the api's RSS under a steady view
 * load climbed from 190 to 395 MiB before falling back (bench/PROFILE.md, twelfth round). With the
 * old generation capped at 1024 MB, V8 grows it by about 1.6 times instead: RSS stayed at 222–258
 * MiB under the same load, with no cost the CPU figures could show. The cap is still twelve times
 * the api's live heap (about 80 MB), so a burst of large documents has room.
 *
 * An operator's own `--max-old-space-size` in NODE_OPTIONS wins over this one.
 */
export const API_HEAP_OPTION = '--max-old-space-size=1024';

/**
 * Node.js arguments for the api: its garbage collector runs on the main thread only.
 *
 * By default V8 marks, scavenges and sweeps on helper threads beside the main one. Under the view
 * load the collector took about a fifth of the api's CPU, two thirds of that on the helpers
 * (bench/PROFILE.md, thirteenth round). On a machine of two cores the helpers compete with
 * PostgreSQL and the clients for the same cores and pay for every hand-over between threads: with
 * the collector on the main thread alone, a view cost less CPU (the api and PostgreSQL together)
 * in 18 of 24 paired runs of bench/side-by-side.mjs, by about 6 % in their median, for pauses a
 * few milliseconds longer (a higher p99 under full load). Node.js does not take this flag from
 * NODE_OPTIONS, so it is an argument of the command line.
 */
export const API_NODE_ARGS = Object.freeze(['--single-threaded-gc']);

/** NODE_OPTIONS for the api: the given options, with the heap cap added unless they set one. */
export function apiNodeOptions(current = '') {
  const options = current.trim();
  if (/(^|\s)--max-old-space-size[=\s]/.test(options)) return options;
  return options ? `${options} ${API_HEAP_OPTION}` : API_HEAP_OPTION;
}
