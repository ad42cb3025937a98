import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

// `pnpm dev` serves the console on Vite and forwards everything the server owns to a running api.
// The Host header is kept, so the api's same-origin check sees the console's own origin.
const api = { target: process.env.SHAREDOWN_API ?? 'http://127.0.0.1:8080', changeOrigin: false };

export default defineConfig({
  plugins: [vue()],
  server: {
    // Keys match as URL prefixes, so they end in a slash where a bare prefix would also catch
    // the console's own paths (`/s` would swallow `/src/…` and `/shares`).
    proxy: {
      '/api/': api,
      '/v1/': api,
      '/s/': api,
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
