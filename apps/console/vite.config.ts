import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

import type { ProxyOptions } from 'vite';

// `pnpm dev` serves the console on Vite and forwards everything the server owns to a running api.
// The api accepts only its own PUBLIC_URL as Origin, so a request the dev console itself made
// (Origin = the dev server) is forwarded as coming from the api's origin; any other Origin is
// passed through unchanged and refused there as usual.
const target = process.env.SHAREDOWN_API ?? 'http://127.0.0.1:8080';
const api: ProxyOptions = {
  target,
  changeOrigin: false,
  configure: (proxy) => {
    proxy.on('proxyReq', (proxyRequest, request) => {
      const origin = request.headers.origin;
      if (origin && origin === `http://${request.headers.host}`) proxyRequest.setHeader('origin', new URL(target).origin);
    });
  },
};

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
