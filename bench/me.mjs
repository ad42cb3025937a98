// GET /v1/me under wrk (1 thread, 50 connections), the calls spread round-robin over enough
// 600/min tokens that no bucket empties (every answer must be 200, none 429): token lookup,
// digest check and one bucket take per call. Beside bare Fastify answering the same JSON bytes.
import { fileURLToPath } from 'node:url';
import {
  CONNECTIONS,
  DURATION_SECONDS,
  cpuRatio,
  createUser,
  expectAtLeast,
  machine,
  printTable,
  row,
  startApi,
  startBaseline,
  wrk,
} from './support.mjs';

// A bucket holds 600 and refills 10/s: 300 tokens carry ~220,000 calls in the run and its warm-up.
const TOKENS = 300;
const USERS = 3;

export const spreadOver = (tokens) => `
local tokens = {${tokens.map((t) => JSON.stringify(t)).join(',')}}
local requests = {}
local n = 0
ok = 0
other = 0
REPORT_COUNTERS = {'ok', 'other'}
function init(args)
  for i, t in ipairs(tokens) do requests[i] = wrk.format(nil, nil, { Authorization = 'Bearer ' .. t }) end
end
function request()
  n = n + 1
  return requests[(n % #requests) + 1]
end
function response(status, headers, body)
  if status == 200 then ok = ok + 1 else other = other + 1 end
end
`;

export async function run() {
  const api = await startApi();
  try {
    const tokens = [];
    for (let i = 0; i < USERS; i++) tokens.push(...(await createUser(api.baseUrl, TOKENS / USERS)).tokens);
    const answer = await fetch(`${api.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${tokens[0]}` } });
    const me = Buffer.from(await answer.arrayBuffer());
    const baseline = await startBaseline({ '/me': { body: me, contentType: 'application/json; charset=utf-8' } });
    try {
      const cpu = { api: async () => [api.pid], postgres: () => api.postgresPids() };
      await wrk(`${baseline.url}/me`, { duration: 2 });
      await wrk(`${api.baseUrl}/v1/me`, { duration: 3, lua: spreadOver(tokens) });
      const bare = await wrk(`${baseline.url}/me`, { cpu: { api: async () => [baseline.pid] } });
      const measured = await wrk(`${api.baseUrl}/v1/me`, { cpu, lua: spreadOver(tokens) });
      const rows = [
        row(`bare Fastify, same ${me.length} bytes of JSON`, bare),
        row(`GET /v1/me, ${TOKENS} tokens of 600/min round-robin`, measured, bare, 0.35),
      ];
      printTable(`GET /v1/me: wrk -t1 -c${CONNECTIONS} -d${DURATION_SECONDS}s, production topology (${machine()})`, rows);
      if (measured.other || measured.errors)
        throw new Error(
          `GET /v1/me: ${measured.other} answers other than 200 (a bucket emptied?), ${measured.errors} socket errors`,
        );
      expectAtLeast('GET /v1/me: bare Fastify CPU per answer / its CPU per answer', cpuRatio(measured, bare), 0.35);
      return rows;
    } finally {
      await baseline.stop();
    }
  } finally {
    await api.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { missed, requireWrk } = await import('./support.mjs');
  requireWrk();
  await run();
  process.exit(missed.length ? 1 : 0);
}
