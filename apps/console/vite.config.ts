import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

// `pnpm dev` serves the console on Vite and forwards everything the server owns to a running api.
const api = process.env.SHAREDOWN_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [vue()],
  server: {
    proxy: {
      '/api': api,
      '/v1': api,
      '/s': api,
      '/healthz': api,
    },
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.spec.ts'],
    setupFiles: ['src/__tests__/setup.ts'],
    restoreMocks: true,
  },
});
