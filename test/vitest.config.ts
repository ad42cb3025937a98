import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          root: '..',
          include: ['apps/*/src/**/*.spec.ts', 'libs/*/src/**/*.spec.ts'],
          exclude: ['**/node_modules/**', 'apps/console/**', '**/*.pg.spec.ts'],
        },
      },
      {
        // Services against a real PostgreSQL (the machine's, 127.0.0.1:5432): a fresh database per file.
        test: {
          name: 'pg',
          root: '..',
          include: ['apps/*/src/**/*.pg.spec.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts', 'resilience/**/*.e2e.ts', 'browser/**/*.e2e.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file boots its own service; two at a time fit the 2-core machines.
          maxWorkers: 2,
          // These tests drive several processes (api replicas, worker, clamd, Chromium) on two shared
          // cores, where a rare stall can outlast a wait. One retry keeps such a stall from failing
          // the run; run-all.mjs names every test that passed only on its retry, so it stays seen.
          retry: 1,
          fileParallelism: true,
        },
      },
    ],
  },
});
