// The share view path under wrk (1 thread, 50 connections, its own process), each case beside
// bare Fastify answering the same bytes in its own process, measured in the same run:
//   - uncapped 20 KB Markdown share, requests without cookies (each a counted visit);
//   - capped shares (maxVisits 9999), every answer an admitted, counted visit;
//   - a password share viewed with the unlock and visitor cookies of one browser;
//   - an HTML share: the page and the frame document it points to, one pair per visit;
//   - a share that already has 1,000,000 recorded visits (seeded in SQL) beside a fresh one,
//     and the console's hourly-visits query of that share;
//   - api memory (RSS) idle (started, uploads served, nothing viewed) and at its peak under this load;
//   - the embedded default (`npm start`: one ROLE=all process, embedded PostgreSQL, no Redis),
//     the uncapped share again.
// Every figure comes with the CPU seconds the api and PostgreSQL's backends used per 1,000 requests,
// and every case is judged by CPU per answer against bare Fastify's (the req/s ratio is printed beside),
// by the median of three rounds, each between two runs of bare Fastify.
import { fileURLToPath } from 'node:url';
import {
  CONNECTIONS,
  DURATION_SECONDS,
  createShare,
  cpuRatio,
  createUser,
  expectAtLeast,
  expectAtMost,
  getShare,
  inRounds,
  loadLine,
  quietMachine,
  machine,
  markdownOf,
  meanOf,
  printTable,
  roundsLine,
  row,
  rssMiB,
  startApi,
  startBaseline,
  startEmbedded,
  uploadShared,
  wrk,
} from './support.mjs';

const CAP = 9999;
// Leaves room for the requests in flight when a scenario moves on to the next capped share.
const PER_CAPPED_SHARE = CAP - 2 * CONNECTIONS;
const SMALL_CAP = 300;
const SEEDED_VISITS = 1_000_000;
/** Rounds of each judged case (inRounds in support.mjs). */
const ROUNDS = 3;
const VISIT_HOURS = 24 * 90;

const lua = {
  /** Counts answers by status class so the run can check every answer was a shown document. */
  counting: `
ok = 0
other = 0
REPORT_COUNTERS = {'ok', 'other'}
function response(status, headers, body)
  if status == 200 then ok = ok + 1 else other = other + 1 end
end
`,
  /** Walks through `paths`, `per` requests each, so no capped share is ever asked past its cap. */
  rotating: (paths, per) => `
local paths = {${paths.map((p) => JSON.stringify(p)).join(',')}}
local requests = {}
local issued = 0
function init(args)
  for i, p in ipairs(paths) do requests[i] = wrk.format(nil, p) end
end
function request()
  local i = math.floor(issued / ${per}) + 1
  issued = issued + 1
  if i > #requests then i = #requests end
  return requests[i]
end
`,
  /** Page, then the frame document its ticket names, on whatever connection asks next. */
  pagePlusFrame: (pagePath) => `
local tickets = {}
local page
pages = 0
frames = 0
other = 0
REPORT_COUNTERS = {'pages', 'frames', 'other'}
function init(args) page = wrk.format(nil, ${JSON.stringify(pagePath)}) end
function request()
  local ticket = table.remove(tickets)
  if ticket then return wrk.format(nil, ticket) end
  return page
end
function response(status, headers, body)
  if status ~= 200 then other = other + 1 return end
  local ticket = string.match(body, '/s/_render/[%w_%-%.~]+')
  if ticket then pages = pages + 1 table.insert(tickets, ticket) else frames = frames + 1 end
end
`,
  /**
   * The baseline's pair: the page's bytes, then the frame's bytes, each answer read as the view's
   * pair reads its own (its body searched for a frame's address), so both runs load wrk alike.
   */
  alternating: (first, second) => `
local requests = {}
local n = 0
pages = 0
frames = 0
REPORT_COUNTERS = {'pages', 'frames'}
function init(args) requests[0] = wrk.format(nil, ${JSON.stringify(first)}) requests[1] = wrk.format(nil, ${JSON.stringify(second)}) end
function request() n = n + 1 return requests[n % 2] end
function response(status, headers, body)
  if string.match(body, '/s/_render/[%w_%-%.~]+') then pages = pages + 1 else frames = frames + 1 end
end
`,
};

function cookieOf(response, name) {
  for (const line of response.headers.getSetCookie()) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match) return `${name}=${match[1]}`;
  }
  return null;
}

function htmlDocument() {
  const rows = Array.from({ length: 160 }, (_, i) => `<tr><td>${i}</td><td>item ${i}</td><td>${(i * 13) % 97}</td></tr>`).join(
    '\n',
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>Benchmark</title><style>td{padding:2px}</style></head><body><h1>Benchmark HTML</h1><table>${rows}</table></body></html>`;
}

/** 1,000,000 recorded visits: the counters, a visitor row each, and 90 days of hourly buckets. */
async function seedVisits(db, shareId) {
  await db.query('BEGIN');
  await db.query('UPDATE shares SET visit_count = $2, unique_visit_count = $2 WHERE id = $1', [shareId, SEEDED_VISITS]);
  await db.query(
    `INSERT INTO share_visitors (share_id, visitor_key, visits) SELECT $1, 'seeded-' || g, 1 FROM generate_series(1, $2::int) AS g`,
    [shareId, SEEDED_VISITS],
  );
  await db.query(
    `INSERT INTO share_visit_hours (share_id, hour, visits)
       SELECT $1, date_trunc('hour', now()) - make_interval(hours => g), $2::int / $3::int
         FROM generate_series(1, $3::int) AS g`,
    [shareId, SEEDED_VISITS, VISIT_HOURS],
  );
  await db.query('COMMIT');
  // Settled as a database that grew to this over months would be: vacuumed and analyzed, the
  // seeding's dirty pages written. Otherwise autovacuum and a checkpoint digesting 1,000,000 fresh
  // rows land in whichever of the two runs below they happen to overlap.
  await db.query('VACUUM (ANALYZE) share_visitors, share_visit_hours, shares');
  await db.query('CHECKPOINT').catch(() => undefined);
}

export async function run() {
  await quietMachine();
  console.log(loadLine('before the view benchmark'));
  // The embedded default first: the topology's last case seeds 1,000,000 visits into the machine's
  // PostgreSQL, whose checkpoints and vacuum then share the cores with whatever runs next.
  const embedded = await runEmbedded();
  const topology = await runTopology();
  console.log(loadLine('after the view benchmark'));
  return [...topology, ...embedded];
}

/** `npm start`'s configuration: the uncapped share beside bare Fastify, on one process and its embedded PostgreSQL. */
async function runEmbedded() {
  const app = await startEmbedded();
  try {
    const user = await createUser(app.baseUrl);
    const shared = await uploadShared(app.baseUrl, user.token, 'bench.md', markdownOf(), {});
    const page = await fetch(shared.url);
    if (page.status !== 200) throw new Error(`embedded view answered ${page.status}`);
    const bytes = Buffer.from(await page.arrayBuffer());
    const baseline = await startBaseline({ '/view': { body: bytes, contentType: 'text/html; charset=utf-8' } });
    try {
      const cpu = { api: async () => [app.pid], postgres: () => app.postgresPids() };
      await wrk(`${baseline.url}/view`, { duration: 2 });
      await wrk(shared.url, { duration: 12 });
      // Bare Fastify is driven by the same wrk scenario as the case (a Lua response() costs wrk per answer).
      const bareCpu = { api: async () => [baseline.pid] };
      const countedBefore = (await getShare(app.baseUrl, user.token, shared.share.id)).visitCount;
      const rounds = await inRounds(
        ROUNDS,
        () => wrk(`${baseline.url}/view`, { cpu: bareCpu, lua: lua.counting }),
        () => wrk(shared.url, { cpu, lua: lua.counting }),
      );
      const { measured: view, bare, total } = rounds;
      const rows = [
        row(`bare Fastify, same ${(bytes.length / 1024).toFixed(1)} KB from memory (before and after)`, bare),
        row(`embedded default (npm start): view, share without policies (median of ${ROUNDS})`, view, bare, 0.25),
      ];
      printTable(`Embedded default: one ROLE=all process, embedded PostgreSQL, queue on it, no Redis (${machine()})`, rows);
      console.log(roundsLine('embedded default', rounds));
      if (total.other || total.errors)
        throw new Error(`embedded view: ${total.other} answers other than 200, ${total.errors} socket errors`);
      // The visits of the measured rounds only (the warm-up's were counted before them).
      const counted = (await getShare(app.baseUrl, user.token, shared.share.id)).visitCount - countedBefore;
      console.log(
        `embedded default: ${total.ok} documents read, ${counted} visits counted (the rest were in flight when wrk stopped)`,
      );
      if (counted < total.ok || counted > total.ok + ROUNDS * CONNECTIONS)
        throw new Error(`embedded default counted ${counted} visits for ${total.ok} shown`);
      expectAtLeast('embedded default, share without policies: CPU ratio to bare Fastify', cpuRatio(view, bare), 0.25);
      return rows;
    } finally {
      await baseline.stop();
    }
  } finally {
    await app.stop();
  }
}

async function runTopology() {
  const api = await startApi();
  const cpu = { api: async () => [api.pid], postgres: () => api.postgresPids() };
  let peakRss = 0;
  // The peak of each run, by case: which load takes the api's memory to its peak.
  const peaks = [];
  const measure = async (label, url, options = {}) => {
    let peak = 0;
    const sample = () =>
      void rssMiB(api.pid).then(
        (value) => ((peak = Math.max(peak, value)), (peakRss = Math.max(peakRss, value))),
        () => undefined,
      );
    const result = await wrk(url, { cpu, onSample: sample, ...options });
    peaks.push(`${label} ${peak.toFixed(0)}`);
    return result;
  };
  try {
    const user = await createUser(api.baseUrl);
    const markdown = markdownOf();
    const uncapped = await uploadShared(api.baseUrl, user.token, 'bench.md', markdown, {});
    const fileId = uncapped.file.id;
    const passwordShare = await createShare(api.baseUrl, user.token, { fileId, password: 'bench password 1' });
    const html = await uploadShared(api.baseUrl, user.token, 'bench.html', htmlDocument(), {}, 'text/html');
    // Idle: started, a user and three uploads served, nothing viewed yet.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idleRss = await rssMiB(api.pid);

    // The bytes each baseline answers: exactly what the api answered for the same request.
    const page = await fetch(uncapped.url);
    if (page.status !== 200) throw new Error(`view answered ${page.status}`);
    const viewBytes = Buffer.from(await page.arrayBuffer());

    const unlock = await fetch(passwordShare.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'password', password: 'bench password 1' }),
    });
    const passwordCookies = unlock.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    if (unlock.status !== 303 || !passwordCookies) throw new Error(`password unlock answered ${unlock.status}`);
    const unlocked = await fetch(passwordShare.url, { headers: { cookie: passwordCookies } });
    if (unlocked.status !== 200) throw new Error(`unlocked view answered ${unlocked.status}`);
    const passwordBytes = Buffer.from(await unlocked.arrayBuffer());

    const htmlPage = await fetch(html.url);
    const visitorCookie = cookieOf(htmlPage, 'sd_visitor');
    const htmlPageBytes = Buffer.from(await htmlPage.arrayBuffer());
    const framePath = /\/s\/_render\/[A-Za-z0-9_.~-]+/.exec(htmlPageBytes.toString('utf8'))?.[0];
    if (!visitorCookie || !framePath) throw new Error('the HTML share page carries no visitor cookie or frame');
    const frame = await fetch(`${api.baseUrl}${framePath}`, { headers: { cookie: visitorCookie } });
    if (frame.status !== 200) throw new Error(`frame answered ${frame.status}`);
    const frameBytes = Buffer.from(await frame.arrayBuffer());

    const baseline = await startBaseline({
      '/view': { body: viewBytes, contentType: 'text/html; charset=utf-8' },
      '/password': { body: passwordBytes, contentType: 'text/html; charset=utf-8' },
      '/page': { body: htmlPageBytes, contentType: 'text/html; charset=utf-8' },
      '/frame': { body: frameBytes, contentType: 'text/html; charset=utf-8' },
    });
    const bareCpu = { api: async () => [baseline.pid] };
    try {
      // Warm-up: JIT, connection pools, the rendering cache. The view's code takes longer than the
      // bare answer's to reach its optimized form: after 5 s the first case still ran ~20 % dearer
      // than the same kind of share measured later in the run.
      await wrk(`${baseline.url}/view`, { duration: 2 });
      await measure('warm-up', uncapped.url, { duration: 12 });

      const results = [];
      // Each round of a case is judged against bare Fastify measured right before and right after it.
      // Bare Fastify is driven by the same wrk scenario as each case (a Lua request() or response()
      // costs wrk per answer, and a client slowed down slows down the server it waits for).
      // Every judged case runs in rounds (inRounds), judged by its median round.
      const uncappedRounds = await inRounds(
        ROUNDS,
        () => wrk(`${baseline.url}/view`, { cpu: bareCpu, lua: lua.counting }),
        () => measure('uncapped', uncapped.url, { lua: lua.counting }),
      );
      const { measured: open, bare: bareView } = uncappedRounds;
      results.push(row(`bare Fastify, same ${(viewBytes.length / 1024).toFixed(1)} KB from memory (before and after)`, bareView));
      results.push(row(`view, share without policies (no cookie, median of ${ROUNDS})`, open, bareView, 0.25));

      // Capped shares: a set of its own for each round, enough that no run asks one past its cap.
      const cappedCount = Math.ceil((open.rps * DURATION_SECONDS * 1.6) / PER_CAPPED_SHARE) + 1;
      const capped = [];
      for (let i = 0; i < cappedCount * ROUNDS; i++)
        capped.push(await createShare(api.baseUrl, user.token, { fileId, maxVisits: CAP }));
      const cappedSets = Array.from({ length: ROUNDS }, (_, round) =>
        capped.slice(round * cappedCount, (round + 1) * cappedCount),
      );
      const cappedRounds = await inRounds(
        ROUNDS,
        () => wrk(`${baseline.url}/view`, { cpu: bareCpu, lua: lua.rotating(['/view'], PER_CAPPED_SHARE) + lua.counting }),
        () => {
          const set = cappedSets.shift();
          return measure('capped', uncapped.url, {
            lua:
              lua.rotating(
                set.map((s) => new URL(s.url).pathname),
                PER_CAPPED_SHARE,
              ) + lua.counting,
          });
        },
      );
      const { measured: limited, bare: bareCapped } = cappedRounds;
      let counted = 0;
      for (const s of capped) counted += (await getShare(api.baseUrl, user.token, s.share.id)).visitCount;
      results.push(
        row(`bare Fastify, same ${(viewBytes.length / 1024).toFixed(1)} KB (before and after the capped case)`, bareCapped),
      );
      results.push(row(`view, capped shares (maxVisits ${CAP}, median of ${ROUNDS})`, limited, bareCapped, 0.2));
      // And a cap the load overruns: exactly that many admitted, the rest refused.
      const small = await createShare(api.baseUrl, user.token, { fileId, maxVisits: SMALL_CAP });
      const overrun = await wrk(small.url, { duration: 2, lua: lua.counting });
      const smallCounted = (await getShare(api.baseUrl, user.token, small.share.id)).visitCount;

      const passwordRounds = await inRounds(
        ROUNDS,
        () => wrk(`${baseline.url}/password`, { cpu: bareCpu, headers: { Cookie: passwordCookies }, lua: lua.counting }),
        () => measure('password', passwordShare.url, { headers: { Cookie: passwordCookies }, lua: lua.counting }),
      );
      const { measured: password, bare: barePassword } = passwordRounds;
      results.push(row(`bare Fastify, same ${(passwordBytes.length / 1024).toFixed(1)} KB (before and after)`, barePassword));
      results.push(row(`view after password unlock (cookie, median of ${ROUNDS})`, password, barePassword, 0.2));

      // Both sides counted per pair: bare Fastify's two answers as one, the view's CPU over its frames.
      const asBarePairs = (m) => ({ ...m, rps: m.rps / 2, cpuPer1000: { api: m.cpuPer1000.api * 2 } });
      const asPairs = (m) => ({
        ...m,
        rps: m.frames / (m.duration_us / 1e6),
        cpuPer1000: Object.fromEntries(
          Object.entries(m.cpuPer1000).map(([k, v]) => [k, m.frames ? (v * m.requests) / m.frames : 0]),
        ),
      });
      const pairRounds = await inRounds(
        ROUNDS,
        async () => asBarePairs(await wrk(`${baseline.url}/page`, { cpu: bareCpu, lua: lua.alternating('/page', '/frame') })),
        async () =>
          asPairs(
            await measure('HTML pair', html.url, {
              headers: { Cookie: visitorCookie },
              lua: lua.pagePlusFrame(new URL(html.url).pathname),
            }),
          ),
      );
      const { measured: pairs, bare: barePairs } = pairRounds;
      results.push(
        row(
          `bare Fastify pair, ${(htmlPageBytes.length / 1024).toFixed(1)} KB page + ${(frameBytes.length / 1024).toFixed(1)} KB frame (pairs/s, before and after)`,
          barePairs,
        ),
      );
      results.push(row(`HTML share: page + frame document (pairs/s, median of ${ROUNDS})`, pairs, barePairs, 0.1));

      // A share with 1,000,000 recorded visits beside a fresh one, measured back to back.
      const fresh = await createShare(api.baseUrl, user.token, { fileId });
      const seeded = await createShare(api.baseUrl, user.token, { fileId });
      const seedStarted = Date.now();
      await seedVisits(api.db, seeded.share.id);
      const seedSeconds = (Date.now() - seedStarted) / 1000;
      // Fresh, seeded, seeded, fresh, each figure the mean of its two runs: a drift that runs one
      // way through the four falls on both alike (alternated, the seeded runs always came second).
      const freshFirst = await measure('fresh', fresh.url, { lua: lua.counting });
      const seededFirst = await measure('1M visits', seeded.url, { lua: lua.counting });
      const seededRun = meanOf(seededFirst, await measure('1M visits', seeded.url, { lua: lua.counting }));
      const freshRun = meanOf(freshFirst, await measure('fresh', fresh.url, { lua: lua.counting }));
      results.push(row('view, fresh share (for the row below)', freshRun, bareView));
      results.push(row(`view, share with ${SEEDED_VISITS.toLocaleString('en')} recorded visits`, seededRun, bareView));
      const hourly = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const answer = await fetch(`${api.baseUrl}/api/console/shares/${seeded.share.id}/visits?hours=${VISIT_HOURS}`, {
          headers: { cookie: user.cookie },
        });
        const body = await answer.json();
        hourly.push(performance.now() - started);
        if (!answer.ok || body.buckets.length !== VISIT_HOURS) throw new Error(`hourly visits answered ${answer.status}`);
      }
      hourly.sort((a, b) => a - b);

      printTable(`Share view: wrk -t1 -c${CONNECTIONS} -d${DURATION_SECONDS}s, production topology (${machine()})`, results);
      console.log(`\nwrk command: ${open.command.replace(/\s\S+$/, ' <url>')}`);
      console.log(roundsLine('view, share without policies', uncappedRounds));
      console.log(roundsLine('view, capped shares', cappedRounds));
      console.log(roundsLine('view after password unlock', passwordRounds));
      console.log(roundsLine('HTML page + frame pair', pairRounds));
      console.log(
        `capped shares: ${capped.length} × maxVisits ${CAP}; ${cappedRounds.total.ok} answers read, ${counted} visits counted (the rest were in flight when wrk stopped)`,
      );
      console.log(
        `a cap of ${SMALL_CAP} under 2 s of load: ${smallCounted} visits counted, ${overrun.ok} shown and ${overrun.other} refused answers read`,
      );
      console.log(
        `seeded ${SEEDED_VISITS.toLocaleString('en')} visits (visitor rows and ${VISIT_HOURS} hourly buckets) in ${seedSeconds.toFixed(1)} s`,
      );
      console.log(
        `console hourly visits of that share (GET /api/console/shares/:id/visits?hours=${VISIT_HOURS}), 20 calls: p50 ${hourly[10].toFixed(1)} ms, max ${hourly[19].toFixed(1)} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const settledRss = await rssMiB(api.pid);
      console.log(
        `api RSS: idle ${idleRss.toFixed(0)} MiB, peak under the view load ${peakRss.toFixed(0)} MiB, ${settledRss.toFixed(0)} MiB 3 s after it`,
      );
      console.log(`api RSS peak of each run (MiB): ${peaks.join(', ')}`);

      // Every answer of a view case must have been the document, each an admitted visit.
      const failures = [];
      for (const [name, m] of [
        ['uncapped', uncappedRounds.total],
        ['capped', cappedRounds.total],
        ['password', passwordRounds.total],
        ['fresh', freshRun],
        ['seeded', seededRun],
      ]) {
        if (m.other || m.errors) failures.push(`${name}: ${m.other} answers other than 200, ${m.errors} socket errors`);
      }
      if (pairRounds.total.other || pairRounds.total.errors)
        failures.push(`HTML pair: ${pairRounds.total.other} answers other than 200, ${pairRounds.total.errors} socket errors`);
      // wrk stops without reading the answers in flight: those visits were admitted and counted too.
      if (counted < cappedRounds.total.ok || counted > cappedRounds.total.ok + ROUNDS * CONNECTIONS)
        failures.push(`capped shares counted ${counted} visits for ${cappedRounds.total.ok} shown`);
      if (smallCounted !== SMALL_CAP || overrun.ok > SMALL_CAP) {
        failures.push(`a cap of ${SMALL_CAP} under load counted ${smallCounted} visits and showed ${overrun.ok}`);
      }
      if (failures.length) throw new Error(failures.join('; '));

      // The judge: bare Fastify's CPU per answer over the case's (api process and its PostgreSQL backends).
      expectAtLeast('view, share without policies: CPU ratio to bare Fastify', cpuRatio(open, bareView), 0.25);
      expectAtLeast('view, capped share: CPU ratio to bare Fastify', cpuRatio(limited, bareCapped), 0.2);
      expectAtLeast('view after password unlock: CPU ratio to bare Fastify', cpuRatio(password, barePassword), 0.2);
      expectAtLeast('HTML page + frame pair: CPU ratio to bare Fastify pair', cpuRatio(pairs, barePairs), 0.1);
      expectAtLeast(`view of a share with ${SEEDED_VISITS} visits / fresh share`, seededRun.rps / freshRun.rps, 0.9);
      expectAtMost('console hourly-visits query p50', hourly[10], 200, ' ms');
      expectAtMost('api RSS idle', idleRss, 200, ' MiB');
      expectAtMost('api RSS peak under the view load', peakRss, 300, ' MiB');
      return results;
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
