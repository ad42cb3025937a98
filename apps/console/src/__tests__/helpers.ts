import { vi } from 'vitest';
import { mount, type ComponentMountingOptions } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { createMemoryHistory, type Router } from 'vue-router';
import type { Component } from 'vue';
import { resetApiClient } from '../api/client';
import { createConsoleI18n, type Locale } from '../i18n';
import { createConsoleRouter } from '../router';

export interface RecordedCall {
  method: string;
  path: string;
  search: string;
  body: unknown;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
type Handler = (call: RecordedCall) => Reply | Promise<Reply>;

/**
 * Answers the console's HTTP calls at the fetch boundary, so the real client, unwrap and stores
 * run unchanged. Unlisted routes answer 404 with the API's envelope.
 */
export function mockApi(routes: Record<string, Handler | Reply>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: Request) => {
    const url = new URL(input.url);
    const text = input.method === 'GET' ? '' : await input.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // multipart or plain bodies stay text
    }
    const call: RecordedCall = { method: input.method, path: url.pathname, search: url.search, body };
    calls.push(call);
    const route = routes[`${input.method} ${url.pathname}`];
    const reply: Reply =
      route === undefined
        ? { status: 404, body: { error: '接口不存在', code: 'NOT_FOUND' } }
        : typeof route === 'function'
          ? await route(call)
          : route;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  resetApiClient();
  return { calls, fetchMock };
}

export const user = {
  id: 'u1',
  email: 'alice@example.com',
  segment: 'alice',
  quotaBytes: 104857600,
  usedBytes: 1048576,
  isAdmin: false,
};

export function envelope(status: number, code: string, error: string, extras: { field?: string } = {}): Reply {
  return { status, body: { error, code, ...extras } };
}

export interface Harness {
  pinia: Pinia;
  router: Router;
  i18n: ReturnType<typeof createConsoleI18n>;
}

export function harness(locale: Locale = 'en'): Harness {
  const pinia = createPinia();
  setActivePinia(pinia);
  const i18n = createConsoleI18n(locale);
  const router = createConsoleRouter(pinia, createMemoryHistory());
  return { pinia, router, i18n };
}

export function mountWith<T extends Component>(
  component: T,
  setup: Harness,
  options: ComponentMountingOptions<T> = {} as ComponentMountingOptions<T>,
) {
  return mount(component, {
    ...options,
    global: { plugins: [setup.pinia, setup.i18n, setup.router], ...(options.global ?? {}) },
  } as ComponentMountingOptions<T>);
}

export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
