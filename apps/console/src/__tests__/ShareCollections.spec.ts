import { beforeEach, describe, expect, it } from 'vitest';
import ShareDetail from '../pages/shares/ShareDetail.vue';
import ShareList from '../pages/shares/ShareList.vue';
import { harness, mockApi, mountWith, settle, user, type Harness, type RecordedCall } from './helpers';

const board = { id: 'd1', name: 'Board papers', parentId: null, createdAt: '2026-01-01T00:00:00Z', children: [] };
const collection = {
  id: 's1',
  token: 'tok1',
  ownerSegment: 'alice',
  folderId: 'd1',
  folderName: 'Board papers',
  agreement: { text: 'Keep it secret.', requireName: true, sha256: 'c'.repeat(64) },
  hasPassword: false,
  expiresAt: null,
  maxVisits: null,
  visitCount: 2,
  uniqueVisitCount: 2,
  oneTime: false,
  revokedAt: null,
  consumedAt: null,
  createdAt: '2026-01-01T00:00:00Z',
};
const single = {
  ...collection,
  id: 's2',
  token: 'tok2',
  folderId: undefined,
  folderName: undefined,
  agreement: null,
  fileId: 'f1',
  fileName: 'notes.md',
  fileKind: 'MARKDOWN',
};

const listQueries = (calls: RecordedCall[]) =>
  calls.filter((call) => call.path === '/api/console/shares').map((call) => Object.fromEntries(new URLSearchParams(call.search)));

describe('Collections in the share list and on the share page', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('names a collection by its folder, with a folder icon and a label, where a file share shows its file', async () => {
    mockApi({
      'GET /api/auth/session': { status: 200, body: { user } },
      'GET /api/console/shares': { status: 200, body: { shares: [collection, single], nextCursor: null, total: 2 } },
      'GET /api/console/shares/totals': { status: 200, body: { active: 2, visits: 4, uniqueVisits: 4 } },
    });
    const wrapper = mountWith(ShareList, setup);
    await settle();
    const [first, second] = wrapper.findAll('[data-share-id]');
    expect(first!.find('[data-test="collection-label"] .ellipsis').text()).toBe('Board papers');
    expect(first!.find('[data-test="collection-badge"]').text()).toBe('collection');
    expect(first!.find('[data-test="collection-label"] svg').exists()).toBe(true);
    expect(second!.find('[data-test="collection-label"]').exists()).toBe(false);
    expect(second!.find('td').text()).toBe('notes.md');
  });

  it('keeps to the folder it came from, and lets the filter go', async () => {
    const { calls } = mockApi({
      'GET /api/auth/session': { status: 200, body: { user } },
      'GET /api/console/folders': { status: 200, body: { folders: [board] } },
      'GET /api/console/shares': { status: 200, body: { shares: [collection], nextCursor: null, total: 1 } },
      'GET /api/console/shares/totals': { status: 200, body: { active: 2, visits: 4, uniqueVisits: 4 } },
    });
    await setup.router.push('/shares?folderId=d1');
    const wrapper = mountWith(ShareList, setup);
    await settle();
    expect(listQueries(calls)).toEqual([{ limit: '20', folderId: 'd1' }]);
    expect(wrapper.find('[data-test="share-folder-filter"]').text()).toContain('Links of the folder “Board papers”');
    await wrapper.find('[data-test="share-folder-filter-clear"]').trigger('click');
    await settle();
    expect(setup.router.currentRoute.value.query).toEqual({});
    expect(listQueries(calls).at(-1)).toEqual({ limit: '20' });
    expect(wrapper.find('[data-test="share-folder-filter"]').exists()).toBe(false);
  });

  it('shows a collection’s page with its folder, its agreement and who accepted it', async () => {
    mockApi({
      'GET /api/auth/session': { status: 200, body: { user } },
      'GET /api/console/shares/s1': { status: 200, body: collection },
      'GET /api/console/shares/s1/visits': { status: 200, body: { buckets: [] } },
      'GET /api/console/shares/s1/reports': { status: 200, body: { reports: [], nextCursor: null } },
      'GET /api/console/shares/s1/acceptances': {
        status: 200,
        body: {
          acceptances: [
            {
              id: 'a1',
              at: '2026-03-01T10:00:00Z',
              name: 'Ada',
              email: null,
              ipPrefix: '203.0.113.0/24',
              userAgent: 'curl/8',
              agreementSha256: 'c'.repeat(64),
            },
          ],
          nextCursor: null,
        },
      },
    });
    const wrapper = mountWith(ShareDetail, setup, { props: { id: 's1' } });
    await settle();
    expect(wrapper.find('h1 [data-test="collection-label"]').text()).toBe('Board paperscollection');
    expect(wrapper.find('[data-test="share-open-folder"]').attributes('href')).toBe('/files?folder=d1');
    expect(wrapper.text()).toContain('They accept your agreement, signing with their name, before anything is shown.');
    expect(wrapper.text()).toContain('They see the folder’s clean documents, including ones added later.');
    expect(wrapper.findAll('[data-acceptance-id]')).toHaveLength(1);
    wrapper.unmount();
  });
});
