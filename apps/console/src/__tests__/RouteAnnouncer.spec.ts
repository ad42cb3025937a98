import { describe, expect, it, vi } from 'vitest';
import App from '../App.vue';
import { createMemoryHistory } from 'vue-router';
import { createConsoleRouter } from '../router';
import { harness, mockApi, mountWith, settle, user } from './helpers';

// Pages are loaded on first use; on a busy machine that takes a while.
const WAIT = { timeout: 10_000 };

const file = {
  id: 'f1',
  name: 'notes.md',
  kind: 'MARKDOWN',
  sizeBytes: 12,
  folderId: null,
  versionNo: 1,
  currentVersionId: 'v1',
  scanStatus: 'CLEAN',
  scanResult: null,
  shareCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/** The signed-in console with a webhook list and one file whose details answer when `release` is called. */
function consoleApi() {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  mockApi({
    'GET /api/auth/session': { status: 200, body: { user } },
    'GET /api/webhooks': { status: 200, body: { webhooks: [] } },
    'GET /api/console/files/f1': async () => {
      await held;
      return { status: 200, body: { file } };
    },
    'GET /api/console/files/f1/versions': { status: 200, body: { versions: [] } },
    'GET /api/console/files/f1/content': {
      status: 200,
      body: { fileId: 'f1', content: '# Notes', kind: 'MARKDOWN', versionId: 'v1', versionNo: 1, scanStatus: 'CLEAN' },
    },
    'GET /api/console/shares': { status: 200, body: { shares: [], total: 0 } },
    'GET /api/console/folders': { status: 200, body: { folders: [] } },
  });
  return { release };
}

/** Opened at /validate as main.ts does: the router's first navigation starts when the app is installed. */
async function mountConsole() {
  const history = createMemoryHistory();
  history.replace('/validate');
  const base = harness();
  const setup = { ...base, router: createConsoleRouter(base.pinia, history) };
  const wrapper = mountWith(App, setup, { attachTo: document.body });
  await setup.router.isReady();
  await vi.waitFor(() => expect(wrapper.find('main h1').exists()).toBe(true), WAIT);
  await settle();
  return { setup, wrapper, announced: () => wrapper.find('[data-test="route-announcer"]') };
}

describe('route announcements', () => {
  it('leaves the first page load alone, then announces each new page and focuses its heading', async () => {
    consoleApi();
    const { setup, wrapper, announced } = await mountConsole();
    expect(announced().attributes('aria-live')).toBe('polite');
    expect(announced().text()).toBe('');
    expect(document.activeElement).toBe(document.body);

    await setup.router.push('/webhooks');
    await vi.waitFor(() => expect(document.activeElement?.tagName).toBe('H1'), WAIT);
    const heading = document.activeElement as HTMLElement;
    expect(heading.textContent?.trim()).toBe('Webhooks');
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(announced().text()).toBe('Webhooks');

    await setup.router.push('/validate');
    await vi.waitFor(() => expect(announced().text()).toBe('Validate'), WAIT);
    await vi.waitFor(() => expect(document.activeElement?.textContent?.trim()).toBe('Validate'), WAIT);
    wrapper.unmount();
  });

  it('waits for a heading that arrives with the data', async () => {
    const { release } = consoleApi();
    const { setup, wrapper, announced } = await mountConsole();
    await setup.router.push('/files/f1');
    await settle();
    expect(announced().text()).toBe('Files');
    expect(wrapper.find('main h1').exists()).toBe(false);

    release();
    await vi.waitFor(() => expect(document.activeElement?.tagName).toBe('H1'), WAIT);
    expect(document.activeElement?.textContent).toContain('notes.md');
    wrapper.unmount();
  });

  it('keeps focus the user moved elsewhere before the heading arrived', async () => {
    const { release } = consoleApi();
    const { setup, wrapper } = await mountConsole();
    await setup.router.push('/files/f1');
    await settle();
    const logout = wrapper.find<HTMLButtonElement>('[data-test="logout"]').element;
    logout.focus();

    release();
    await vi.waitFor(() => expect(wrapper.find('main h1').exists()).toBe(true), WAIT);
    await settle();
    expect(document.activeElement).toBe(logout);
    wrapper.unmount();
  });
});
