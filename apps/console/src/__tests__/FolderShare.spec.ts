import { beforeEach, describe, expect, it } from 'vitest';
import FileBrowserHeader from '../pages/files/FileBrowserHeader.vue';
import ShareCreate from '../pages/shares/ShareCreate.vue';
import { harness, mockApi, mountWith, settle, user, type Harness } from './helpers';

const board = { id: 'd1', name: 'Board papers', parentId: null, createdAt: '2026-01-01T00:00:00Z', children: [] };
const created = {
  share: {
    id: 's9',
    token: 'tok9',
    ownerSegment: 'alice',
    folderId: 'd1',
    folderName: 'Board papers',
    agreement: null,
    hasPassword: false,
    visitCount: 0,
    uniqueVisitCount: 0,
    oneTime: false,
  },
  url: 'http://localhost/s/alice/tok9',
};

describe('Sharing a folder as a collection', () => {
  let setup: Harness;
  beforeEach(() => (setup = harness()));

  it('goes from the folder’s actions to the share form and sends folderId, never fileId or a version', async () => {
    const { calls } = mockApi({
      'GET /api/auth/session': { status: 200, body: { user } },
      'GET /api/console/folders': { status: 200, body: { folders: [board] } },
      'POST /api/console/shares': { status: 200, body: created },
    });
    await setup.router.push('/files?folder=d1');
    const header = mountWith(FileBrowserHeader, setup, { props: { breadcrumb: [board], current: board } });
    expect(header.find('[data-test="share-folder"]').attributes('href')).toBe('/shares/new?folderId=d1');
    expect(header.find('[data-test="folder-shares"]').attributes('href')).toBe('/shares?folderId=d1');
    await header.find('[data-test="share-folder"]').trigger('click');
    await settle();
    expect(setup.router.currentRoute.value.name).toBe('share-create');

    const page = mountWith(ShareCreate, setup, { attachTo: document.body });
    await settle();
    expect(page.find('[data-test="share-create-folder"]').text()).toContain('Board papers');
    expect(page.find('[data-test="collection-badge"]').text()).toBe('collection');
    expect(page.find('#sf-version').exists()).toBe(false);
    await page.find('[data-test="sf-password-toggle"]').setValue(true);
    await page.find('#sf-password').setValue('s3cret');
    await page.find('form').trigger('submit');
    await settle();

    const posts = calls.filter((call) => call.method === 'POST' && call.path === '/api/console/shares');
    expect(posts.map((call) => call.body)).toEqual([{ folderId: 'd1', password: 's3cret' }]);
    expect(page.find('[data-test="share-created"]').exists()).toBe(true);
    expect(page.find('[data-test="share-created"]').text()).toContain('Back to the folder');
    page.unmount();
  });

  it('says so when the folder is not there (trashed, or another account’s)', async () => {
    mockApi({
      'GET /api/auth/session': { status: 200, body: { user } },
      'GET /api/console/folders': { status: 200, body: { folders: [board] } },
    });
    await setup.router.push('/shares/new?folderId=elsewhere');
    const page = mountWith(ShareCreate, setup);
    await settle();
    expect(page.find('[data-test="share-form"]').exists()).toBe(false);
    expect(page.find('[role="alert"]').text()).toContain('It does not exist, or it is not yours.');
  });
});
