import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_HEAP_OPTION, API_NODE_ARGS, apiNodeOptions } from '../../scripts/api-heap.mjs';

const MB = 1024 * 1024;

/** The heap limit V8 reports in a Node.js process started with these NODE_OPTIONS. */
function heapLimitWith(nodeOptions: string): number {
  const probe = spawnSync(process.execPath, ['-p', 'require("node:v8").getHeapStatistics().heap_size_limit'], {
    env: { PATH: process.env.PATH, NODE_OPTIONS: nodeOptions },
    encoding: 'utf8',
  });
  expect(probe.status, probe.stderr).toBe(0);
  return Number(probe.stdout.trim());
}

describe("the api's heap cap and collector (scripts/api-heap.mjs)", () => {
  it('is added to NODE_OPTIONS, and an operator’s own cap wins', () => {
    expect(apiNodeOptions()).toBe(API_HEAP_OPTION);
    expect(apiNodeOptions('  ')).toBe(API_HEAP_OPTION);
    expect(apiNodeOptions('--enable-source-maps')).toBe(`--enable-source-maps ${API_HEAP_OPTION}`);
    expect(apiNodeOptions('--max-old-space-size=3072')).toBe('--max-old-space-size=3072');
    expect(apiNodeOptions('--enable-source-maps --max-old-space-size=512')).toBe('--enable-source-maps --max-old-space-size=512');
    // A look-alike option is not a cap.
    expect(apiNodeOptions('--max-old-space-size-percentage=50')).toBe(`--max-old-space-size-percentage=50 ${API_HEAP_OPTION}`);
  });

  it('is one Node.js accepts from NODE_OPTIONS, and caps the old generation where it says', () => {
    // The limit is the old generation's cap plus the young generation's share, which V8 sizes from
    // the cap and its own version: 48 MB on Node.js 20, 192 MB on Node.js 24 (with no cap, a 24 GiB
    // host gets about 4,100 MB on either).
    const young = 256 * MB;
    const limit = heapLimitWith(apiNodeOptions());
    expect(limit).toBeGreaterThanOrEqual(1024 * MB);
    expect(limit).toBeLessThan(1024 * MB + young);
    const operatorsLimit = heapLimitWith(apiNodeOptions('--max-old-space-size=512'));
    expect(operatorsLimit).toBeGreaterThanOrEqual(512 * MB);
    expect(operatorsLimit).toBeLessThan(512 * MB + young);
  });

  it('runs the collector on the main thread, with an argument this Node.js takes only on the command line', () => {
    expect(API_NODE_ARGS).toEqual(['--single-threaded-gc']);
    // Node.js refuses the flag in NODE_OPTIONS (that is why it is an argument, not part of the cap's
    // value); on the command line, beside the cap, a Node.js that did not know it would exit with
    // "bad option". It is taken, and the process collects garbage with it.
    const probe = spawnSync(
      process.execPath,
      [...API_NODE_ARGS, '--expose-gc', '-p', 'globalThis.gc(); process.execArgv.filter((a) => a.startsWith("--")).join(" ")'],
      {
        env: { PATH: process.env.PATH, NODE_OPTIONS: apiNodeOptions() },
        encoding: 'utf8',
      },
    );
    expect(probe.status, probe.stderr).toBe(0);
    expect(probe.stderr).toBe('');
    expect(probe.stdout.trim()).toBe([...API_NODE_ARGS, '--expose-gc'].join(' '));
  });

  it('is what the Docker image and `npm start` set, so both run the api alike', () => {
    const dockerfile = readFileSync(fileURLToPath(new URL('../../docker/Dockerfile', import.meta.url)), 'utf8');
    const runtimeStage = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtimeStage).toContain(`ENV NODE_OPTIONS=${API_HEAP_OPTION}\n`);
    const command = ['node', ...API_NODE_ARGS, 'apps/api/dist/main.js'].map((part) => JSON.stringify(part)).join(', ');
    expect(runtimeStage).toContain(`CMD [${command}]\n`);
    const launcher = readFileSync(fileURLToPath(new URL('../../scripts/run.mjs', import.meta.url)), 'utf8');
    expect(launcher).toContain('NODE_OPTIONS: apiNodeOptions(process.env.NODE_OPTIONS)');
    expect(launcher).toContain("spawn(process.execPath, [...API_NODE_ARGS, join(root, 'apps/api/dist/main.js')]");
  });
});
