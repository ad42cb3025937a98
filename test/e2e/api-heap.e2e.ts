import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_HEAP_OPTION, apiNodeOptions } from '../../scripts/api-heap.mjs';

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

describe("the api's heap cap (scripts/api-heap.mjs)", () => {
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
    const limit = heapLimitWith(apiNodeOptions());
    // The limit is the old generation's cap plus the young generation's few MB.
    expect(limit).toBeGreaterThanOrEqual(1024 * MB);
    expect(limit).toBeLessThan(1024 * MB + 128 * MB);
    expect(heapLimitWith(apiNodeOptions('--max-old-space-size=512'))).toBeLessThan(640 * MB);
  });

  it('is what the Docker image sets, so the image and `npm start` run the api alike', () => {
    const dockerfile = readFileSync(fileURLToPath(new URL('../../docker/Dockerfile', import.meta.url)), 'utf8');
    const runtimeStage = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtimeStage).toContain(`ENV NODE_OPTIONS=${API_HEAP_OPTION}\n`);
    const launcher = readFileSync(fileURLToPath(new URL('../../scripts/run.mjs', import.meta.url)), 'utf8');
    expect(launcher).toContain('NODE_OPTIONS: apiNodeOptions(process.env.NODE_OPTIONS)');
  });
});
