import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { setTabWorkspace } from '../api/client';
import { useWorkspaceRole } from '../composables/workspaceRole';
import ActivityPage from '../pages/activity/ActivityPage.vue';
import FileBrowser from '../pages/files/FileBrowser.vue';
import TrashPage from '../pages/trash/TrashPage.vue';
import WebhookList from '../pages/webhooks/WebhookList.vue';
import { useSessionStore } from '../stores/session';
import { harness, mockApi, mountWith, settle, user, type Harness } from './helpers';

vi.mock('../router/leave', () => ({ leaveTo: vi.fn() }));

const account = { ...user, emailVerified: true, hasPassword: true, twoFactorEnabled: false };
const personal = {
  id: user.id,
  name: user.email,
  segment: user.segment,
  personal: true,
  role: 'OWNER',
  quotaBytes: 100,
  usedBytes: 1,
  memberCount: 1,
};
const SALES_ID = '11111111-2222-4333-8444-555555555555';
const sales = (role: string) => ({
  id: SALES_ID,
  name: 'Sales',
  segment: 'sales',
  personal: false,
  role,
  quotaBytes: 1000,
  usedBytes: 10,
  memberCount: 2,
});
const deck = {
  id: 'f1',
  name: 'deck.md',
  kind: 'MARKDOWN',
  sizeBytes: 120,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  folderId: null,
  shareCount: 0,
  scanStatus: 'CLEAN',
  scanResult: null,
  currentVersionId: 'v1',
  versionNo: 1,
  fromRequest: null,
  createdBy: { userId: 'u2', email: 'bob@example.com' },
};
const board = { id: 'd1', name: 'Board papers', parentId: null, createdAt: '2026-01-01T00:00:00Z', children: [] };

/** A component that shows what the composable answers, for reading it from the outside. */
const Probe = defineComponent({
  setup() {
    const role = useWorkspaceRole();
    return () =>
      h(
        'p',
        { 'data-test': 'probe' },
        [role.canWrite.value, role.canManageMembers.value, role.canManageWebhooks.value, role.canCreateTokens.value].join(' '),
      );
  },
});

describe('useWorkspaceRole', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    sessionStorage.clear();
    useSessionStore(setup.pinia).adopt(account);
  });
  afterEach(() => sessionStorage.clear());

  it('allows everything in the personal workspace, without asking for the list', async () => {
    const { calls } = mockApi({});
    const wrapper = mountWith(Probe, setup);
    await settle();
    expect(wrapper.text()).toBe('true true true true');
    expect(calls).toEqual([]);
  });

  it.each([
    ['OWNER', 'true true true true'],
    ['ADMIN', 'true true true true'],
    ['EDITOR', 'true false false true'],
    ['VIEWER', 'false false false false'],
  ])('follows the role in a shared workspace: %s', async (role, expected) => {
    setTabWorkspace(SALES_ID);
    mockApi({ 'GET /api/workspaces': { status: 200, body: { workspaces: [personal, sales(role)] } } });
    const wrapper = mountWith(Probe, setup);
    await settle();
    expect(wrapper.text()).toBe(expected);
  });

  it('offers nothing that writes while the shared workspace’s role is not known yet', async () => {
    setTabWorkspace(SALES_ID);
    let answer: (value: unknown) => void = () => undefined;
    const listed = new Promise((resolve) => (answer = resolve));
    mockApi({
      'GET /api/workspaces': async () => {
        await listed;
        return { status: 200, body: { workspaces: [personal, sales('EDITOR')] } };
      },
    });
    const wrapper = mountWith(Probe, setup);
    await settle();
    expect(wrapper.text()).toBe('false false false false');
    answer(null);
    await settle();
    expect(wrapper.text()).toBe('true false false true');
  });
});

describe('pages for a VIEWER', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    sessionStorage.clear();
    useSessionStore(setup.pinia).adopt(account);
  });
  afterEach(() => sessionStorage.clear());

  const filesApi = (role: string) =>
    mockApi({
      'GET /api/workspaces': { status: 200, body: { workspaces: [personal, sales(role)] } },
      'GET /api/console/folders': { status: 200, body: { folders: [board] } },
      'GET /api/console/files': { status: 200, body: { files: [deck], total: 1, page: 1, pageSize: 50 } },
    });

  it('the files page lists folders and files but offers no upload, folder command, share, move or trash', async () => {
    setTabWorkspace(SALES_ID);
    filesApi('VIEWER');
    await setup.router.push('/files?folder=d1');
    const wrapper = mountWith(FileBrowser, setup);
    await settle();
    expect(wrapper.find('tr[data-file-name="deck.md"]').exists()).toBe(true);
    for (const hook of [
      'upload-button',
      'upload-input',
      'new-folder',
      'rename-folder',
      'trash-folder',
      'share-folder',
      'share-deck.md',
    ])
      expect(wrapper.find(`[data-test="${hook}"]`).exists(), hook).toBe(false);
    expect(wrapper.find('tr[data-file-name="deck.md"] button').exists()).toBe(false);
    expect(wrapper.find('[data-test="viewer-badge"]').text()).toBe('Read only');
    // The table keeps its shape: no empty actions column.
    expect(wrapper.findAll('thead th')).toHaveLength(5);
    wrapper.unmount();
  });

  it('the same page offers them all to an EDITOR', async () => {
    setTabWorkspace(SALES_ID);
    filesApi('EDITOR');
    await setup.router.push('/files?folder=d1');
    const wrapper = mountWith(FileBrowser, setup);
    await settle();
    for (const hook of ['upload-button', 'new-folder', 'rename-folder', 'trash-folder', 'share-folder', 'share-deck.md'])
      expect(wrapper.find(`[data-test="${hook}"]`).exists(), hook).toBe(true);
    expect(wrapper.find('[data-test="viewer-badge"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('the trash lists what was deleted without restore, purge or empty', async () => {
    setTabWorkspace(SALES_ID);
    mockApi({
      'GET /api/workspaces': { status: 200, body: { workspaces: [personal, sales('VIEWER')] } },
      'GET /api/console/trash': {
        status: 200,
        body: {
          files: [{ ...deck, deletedAt: '2026-01-02T00:00:00Z' }],
          folders: [],
        },
      },
    });
    const wrapper = mountWith(TrashPage, setup);
    await settle();
    expect(wrapper.find('tr[data-trash-name="deck.md"]').exists()).toBe(true);
    for (const hook of ['trash-restore', 'trash-purge', 'empty-trash'])
      expect(wrapper.find(`[data-test="${hook}"]`).exists(), hook).toBe(false);
    wrapper.unmount();
  });

  it('webhooks are read by an EDITOR, managed by an OWNER or ADMIN only', async () => {
    setTabWorkspace(SALES_ID);
    mockApi({
      'GET /api/workspaces': { status: 200, body: { workspaces: [personal, sales('EDITOR')] } },
      'GET /api/webhooks': {
        status: 200,
        body: {
          webhooks: [
            {
              id: 'w1',
              url: 'https://hooks.example.com/x',
              events: ['share_visited'],
              active: true,
              createdAt: '2026-01-01T00:00:00Z',
            },
          ],
          nextCursor: null,
          total: 1,
          activeCount: 1,
        },
      },
    });
    const wrapper = mountWith(WebhookList, setup);
    await settle();
    expect(wrapper.find('[data-test="webhooks-manager-note"]').exists()).toBe(true);
    expect(wrapper.find('#webhook-create-title').exists()).toBe(false);
    expect(wrapper.find('[data-test="webhook-pause"]').exists()).toBe(false);
    expect(wrapper.find('tr[data-webhook-id="w1"]').text()).not.toContain('Delete');
    wrapper.unmount();
  });
});

describe('ActivityPage in a shared workspace', () => {
  let setup: Harness;
  beforeEach(() => {
    setup = harness();
    sessionStorage.clear();
    useSessionStore(setup.pinia).adopt(account);
  });
  afterEach(() => sessionStorage.clear());

  const entry = (id: string, email: string, userId: string) => ({
    id,
    action: 'share.created',
    createdAt: '2026-01-01T00:00:00Z',
    actorId: userId,
    actor: { userId, email },
    targetId: null,
    details: {},
    ipPrefix: null,
  });

  it('names who acted, lists every member (all pages) in the filter, and asks for one member’s actions', async () => {
    setTabWorkspace(SALES_ID);
    const { calls } = mockApi({
      'GET /api/workspaces': { status: 200, body: { workspaces: [personal, sales('VIEWER')] } },
      'GET /api/console/workspace/members': (call) =>
        new URLSearchParams(call.search).get('cursor') === 'next'
          ? {
              status: 200,
              body: {
                members: [{ userId: 'u3', email: 'carol@example.com', role: 'VIEWER', joinedAt: '2026-01-01T00:00:00Z' }],
                nextCursor: null,
              },
            }
          : {
              status: 200,
              body: {
                members: [
                  { userId: 'u2', email: 'bob@example.com', role: 'EDITOR', joinedAt: '2026-01-01T00:00:00Z' },
                  { userId: user.id, email: user.email, role: 'OWNER', joinedAt: '2026-01-01T00:00:00Z' },
                ],
                nextCursor: 'next',
              },
            },
      'GET /api/audit': (call) => {
        const actor = new URLSearchParams(call.search).get('actor');
        const events = [entry('2', 'bob@example.com', 'u2'), entry('1', user.email, user.id)].filter(
          (event) => !actor || event.actor.userId === actor,
        );
        return { status: 200, body: { events, nextCursor: null } };
      },
    });
    const wrapper = mountWith(ActivityPage, setup);
    await settle();
    const select = wrapper.find('[data-test="activity-actor-filter"]');
    expect(select.findAll('option').map((option) => option.text())).toEqual([
      'Everyone',
      user.email,
      'bob@example.com',
      'carol@example.com',
    ]);
    expect(wrapper.find('label[for="activity-actor"]').text()).toBe('Member');
    expect(wrapper.findAll('[data-test="activity-actor"]').map((cell) => cell.text())).toEqual(['bob@example.com', user.email]);
    expect(wrapper.find('header p').text()).toContain('What the members of “Sales” did');
    // A member's own actions are not an administrator's.
    expect(wrapper.text()).not.toContain('by an administrator');

    await select.setValue('u2');
    await settle();
    expect(wrapper.findAll('[data-test="activity-actor"]').map((cell) => cell.text())).toEqual(['bob@example.com']);
    const asked = calls.filter((call) => call.path === '/api/audit').map((call) => new URLSearchParams(call.search).get('actor'));
    expect(asked).toEqual([null, 'u2']);

    await select.setValue('u3');
    await settle();
    expect(wrapper.find('[data-test="activity-empty"]').text()).toBe('Nothing recorded for this member yet.');
    wrapper.unmount();
  });

  it('shows no filter and no member column in the personal workspace', async () => {
    const { calls } = mockApi({
      'GET /api/workspaces': { status: 200, body: { workspaces: [personal] } },
      'GET /api/audit': { status: 200, body: { events: [entry('1', user.email, user.id)], nextCursor: null } },
    });
    const wrapper = mountWith(ActivityPage, setup);
    await settle();
    expect(wrapper.find('[data-test="activity-actor-filter"]').exists()).toBe(false);
    expect(wrapper.find('[data-test="activity-actor"]').exists()).toBe(false);
    expect(calls.some((call) => call.path === '/api/console/workspace/members')).toBe(false);
    wrapper.unmount();
  });
});
