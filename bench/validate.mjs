// POST /v1/validate on a 1 MB Markdown document, beside the raw markdown-it parse of the
// same input measured in the same run (the parser the validator and the viewer use), and
// the validator's own work in this process (no HTTP) to show where the time goes.
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import { createUser, machine, percentile, printTable, ratio, startApi } from './support.mjs';

const VALIDATOR = new URL('../apps/api/dist/validate/validate.js', import.meta.url);
const ROUNDS = 30;

/**
 * About `bytes` of realistic Markdown: headings, paragraphs with inline markup, reference
 * and inline links, lists, tables, fenced code, a little raw HTML, CRLF line ends and tabs
 * so normalization has work to do.
 */
export function markdownDocument(bytes = 1024 * 1024) {
  const sections = [];
  let length = 0;
  // Stays under the validate limit of 1048576 characters with room for the definitions.
  for (let index = 0; length < bytes - 8 * 1024; index++) {
    sections.push(
      [
        `## Section ${index}: notes on item ${index}`,
        '',
        `Paragraph ${index} explains *why* the **design** keeps \`state\` small; see [the guide][guide] and ` +
          `[issue ${index}](https://example.com/issues/${index}). Text continues with plain words to fill the line.  `,
        '',
        `- first point for ${index}`,
        `- second point with a [reference][ref-${index % 50}]`,
        '\t- an indented point written with a tab',
        '',
        '| column a | column b | column c |',
        '| --- | --- | --- |',
        `| ${index} | ${index * 2} | ${index * 3} |`,
        '',
        '```js',
        `const value${index} = compute(${index}); // code is not checked for references [a][b]`,
        '```',
        '',
        index % 10 === 0 ? '<details><summary>more</summary>hidden detail</details>\n' : '',
      ].join('\r\n'),
    );
    length += sections.at(-1).length + 2;
  }
  const definitions = [
    '[guide]: https://example.com/guide',
    ...Array.from({ length: 50 }, (_, i) => `[ref-${i}]: https://example.com/r/${i}`),
  ];
  return `# Benchmark document\r\n\r\n${sections.join('\r\n')}\r\n${definitions.join('\r\n')}\r\n`;
}

function summarize(samples, bytes) {
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    perSecond: 1000 / mean,
    mbPerSecond: bytes / 2 ** 20 / (mean / 1000),
  };
}

function row(label, stats) {
  return {
    case: label,
    'p50 ms': stats.p50.toFixed(1),
    'p95 ms': stats.p95.toFixed(1),
    'docs/s': stats.perSecond.toFixed(1),
    'MB/s': stats.mbPerSecond.toFixed(1),
  };
}

export async function run() {
  const content = markdownDocument();
  const bytes = Buffer.byteLength(content);
  const { validateDocument } = await import(VALIDATOR.href);
  const markdown = new MarkdownIt({ html: true, linkify: true });
  const check = validateDocument(content, 'MARKDOWN');
  if (!check.ok) throw new Error(`the benchmark document should validate: ${JSON.stringify(check.issues.slice(0, 3))}`);

  const api = await startApi();
  try {
    const user = await createUser(api.baseUrl);
    const body = JSON.stringify({ content, kind: 'MARKDOWN' });
    const call = async () => {
      const response = await fetch(`${api.baseUrl}/v1/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        body,
      });
      const result = await response.json();
      if (!response.ok || !result.ok) throw new Error(`validate answered ${response.status}`);
    };
    const samples = { http: [], inProcess: [], baseline: [] };
    // Interleaved, so that load from anything else on the machine falls on all three alike.
    for (let i = -3; i < ROUNDS; i++) {
      const t0 = performance.now();
      markdown.parse(content, {});
      const t1 = performance.now();
      validateDocument(content, 'MARKDOWN');
      const t2 = performance.now();
      await call();
      const t3 = performance.now();
      if (i < 0) continue;
      samples.baseline.push(t1 - t0);
      samples.inProcess.push(t2 - t1);
      samples.http.push(t3 - t2);
    }
    const http = summarize(samples.http, bytes);
    const inProcess = summarize(samples.inProcess, bytes);
    const baseline = summarize(samples.baseline, bytes);
    const ratioRow = (label, measured) => ({
      case: label,
      'p50 ms': ratio(measured.p50, baseline.p50),
      'p95 ms': ratio(measured.p95, baseline.p95),
      'docs/s': ratio(measured.perSecond, baseline.perSecond),
      'MB/s': ratio(measured.mbPerSecond, baseline.mbPerSecond),
    });
    const rows = [
      row('POST /v1/validate (HTTP)', http),
      row('validateDocument in-process', inProcess),
      row('baseline: markdown-it parse', baseline),
      ratioRow('ratio HTTP / baseline', http),
      ratioRow('ratio in-process / baseline', inProcess),
    ];
    printTable(`Validate a ${(bytes / 2 ** 20).toFixed(2)} MB Markdown document, ${ROUNDS} rounds (${machine()})`, rows);
    return rows;
  } finally {
    await api.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
