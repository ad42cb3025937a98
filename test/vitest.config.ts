import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          root: '..',
          include: ['apps/*/src/**/*.spec.ts', 'libs/*/src/**/*.spec.ts'],
          exclude: ['**/node_modules/**', 'apps/console/**'],
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
          fileParallelism: true,
        },
      },
    ],
  },
});
