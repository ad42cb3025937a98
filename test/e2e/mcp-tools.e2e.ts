import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unwrap, type Schemas } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { connect, type Connected, type Transport } from '../support/mcp-server.js';
import { EICAR } from '../support/clamd.js';
import { uploadFile, waitForScan } from '../support/uploads.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

const SPEC_TOOLS = ['service_upload', 'service_share', 'service_revoke', 'service_get', 'service_list', 'service_validate'];
const NEW_TOOLS = [
  'service_share_folder',
  'service_list_shares',
  'service_get_share',
  'service_update_share',
  'service_delete',
  'service_restore',
  'service_trash',
  'service_purge',
  'service_move',
  'service_read',
  'service_folders',
  'service_create_folder',
  'service_visits',
  'service_acceptances',
  'service_analytics',
  'service_reports',
  'service_notifications',
  'service_mark_read',
  'service_activity',
  'service_create_request',
  'service_list_requests',
  'service_get_request',
  'service_close_request',
  'service_request_uploads',
  'service_review_upload',
  'service_workspace',
  'service_members',
  'service_invite',
  'service_set_role',
  'service_remove_member',
  'service_list_invitations',
  'service_revoke_invitation',
];
const READ_ONLY = [
  'service_get',
  'service_list',
  'service_validate',
  'service_list_shares',
  'service_get_share',
  'service_reports',
  'service_trash',
  'service_read',
  'service_folders',
  'service_visits',
  'service_acceptances',
  'service_analytics',
  'service_notifications',
  'service_activity',
  'service_list_requests',
  'service_get_request',
  'service_request_uploads',
  'service_workspace',
  'service_members',
  'service_list_invitations',
];
const DESTRUCTIVE = [
  'service_revoke',
  'service_delete',
  'service_purge',
  'service_close_request',
  'service_review_upload',
  'service_remove_member',
  'service_revoke_invitation',
];

/** What each tool the tests call returns on success, in the contract's own types. */
interface ToolResults {
  service_upload: Schemas['UploadResponseDto'];
  service_share: Schemas['CreatedShareDto'];
  service_share_folder: Schemas['CreatedShareDto'];
  service_list: Schemas['FileListDto'];
  service_get: Schemas['FileResponseDto'];
  service_revoke: Schemas['ShareEnvelopeDto'];
  service_list_shares: Schemas['ShareListDto'];
  service_get_share: { share: Schemas['ShareDto']; policies: Schemas['SharePoliciesDto'] };
  service_update_share: Schemas['ShareEnvelopeDto'];
  service_delete: { file?: Schemas['FileDto']; folder?: Schemas['FolderDto'] };
  service_restore: { file?: Schemas['ConsoleFileDto']; folder?: Schemas['FolderDto']; renamed: boolean };
  service_trash: Schemas['TrashListDto'];
  service_purge: Schemas['PurgeResultDto'];
  service_move: { file?: Schemas['ConsoleFileDto']; folder?: Schemas['FolderDto'] };
  service_read: { fileId: string; name?: string; mediaType: string; versionId: string; versionNo?: number; text: string };
  service_folders: Schemas['FolderTreeDto'];
  service_create_folder: Schemas['FolderResponseDto'];
  service_visits: Schemas['ShareVisitPageDto'];
  service_analytics: Schemas['ShareAnalyticsDto'];
  service_reports: Schemas['ShareReportPageDto'];
  service_notifications: Schemas['NotificationPageDto'];
  service_mark_read: Schemas['UnreadCountDto'];
  service_activity: Schemas['AuditPageDto'];
}

function errorBody(result: CallToolResult): { code: string; status: number; message: string } {
  expect(result.isError).toBe(true);
  const text = result.content.find((part) => part.type === 'text') as { text: string } | undefined;
  expect(text).toBeDefined();
  return JSON.parse(text!.text);
}

/** Arguments outside the input schema: the SDK refuses them before the tool runs, naming the field. */
function schemaError(result: CallToolResult, field: string): void {
  expect(result.isError).toBe(true);
  const text = (result.content.find((part) => part.type === 'text') as { text: string }).text;
  expect(text).toMatch(/Input validation error/);
  expect(text).toContain(field);
}

function data<T>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}`);
  const text = result.content.find((part) => part.type === 'text') as { text: string };
  expect(JSON.parse(text.text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

/** Polls until `check` holds, for what the service writes after it answered (visit log, notifications). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function findFolder(nodes: Schemas['FolderNodeDto'][], id: string): Schemas['FolderNodeDto'] | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const inner = findFolder(node.children, id);
    if (inner) return inner;
  }
  return undefined;
}

describe('MCP tools for every document operation', () => {
  let app: RunningApp;
  let alice: TestUser;
  let bob: TestUser;
  let bobsFile: Schemas['FileDto'];
  let bobsShare: Schemas['ShareDto'];
  let quarantined: Schemas['FileDto'];

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = await Promise.all([createUser(app.baseUrl), createUser(app.baseUrl)]);
    bobsFile = (await unwrap(uploadFile(bob.api, 'bobs-secret.md', '# mine\n'))).file;
    await waitForScan(bob.console, bobsFile.id);
    bobsShare = (await unwrap(bob.api.POST('/api/v1/shares', { body: { fileId: bobsFile.id } }))).share;
    quarantined = (await unwrap(uploadFile(alice.api, 'eicar.txt', EICAR))).file;
    const scanned = await waitForScan(alice.console, quarantined.id);
    expect(scanned.scanStatus).toBe('INFECTED');
    expect((await unwrap(alice.api.GET('/api/v1/files/{id}', { params: { path: { id: quarantined.id } } }))).scanStatus).toBe(
      'INFECTED',
    );
  });
  afterAll(async () => app?.cleanup());

  describe.each<Transport>(['stdio', 'http'])('over %s', (transport) => {
    let connected: Connected;
    let call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
    const ok = async <K extends keyof ToolResults>(name: K, args: Record<string, unknown> = {}) =>
      data<ToolResults[K]>(await call(name, args));
    const tag = `${transport}-${Date.now()}`;
    let seq = 0;
    // A retried test must not meet the names its first attempt left behind.
    const unique = (label: string) => `${tag}-${++seq}-${label}`;

    /** A Markdown file of alice's, scanned clean, so that it can be read and shared. */
    async function cleanFile(name: string, content: string, folder?: string): Promise<Schemas['FileDto']> {
      const { file } = await ok('service_upload', { content, name, kind: 'MARKDOWN', ...(folder ? { folder } : {}) });
      expect((await waitForScan(alice.console, file.id)).scanStatus).toBe('CLEAN');
      return file;
    }

    beforeAll(async () => {
      connected = await connect(transport, { SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: alice.token });
      // Listing first makes the SDK client check every structuredContent against the declared output schemas.
      await connected.client.listTools();
      call = async (name, args = {}) => (await connected.client.callTool({ name, arguments: args })) as CallToolResult;
    });
    afterAll(async () => connected?.close());

    it('lists the six original tools and every new one, each with an output schema and honest annotations', async () => {
      const { tools } = await connected.client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...SPEC_TOOLS, ...NEW_TOOLS].sort());
      for (const tool of tools) {
        expect(tool.description!.length, tool.name).toBeGreaterThan(80);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        expect(tool.annotations, tool.name).toEqual(
          expect.objectContaining({
            readOnlyHint: READ_ONLY.includes(tool.name),
            destructiveHint: DESTRUCTIVE.includes(tool.name),
            idempotentHint: expect.any(Boolean),
            openWorldHint: false,
          }),
        );
      }
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      for (const name of READ_ONLY) expect(byName[name]!.annotations!.idempotentHint, name).toBe(true);
      expect(byName.service_purge!.annotations!.idempotentHint).toBe(false);
      expect(byName.service_list!.inputSchema.required ?? []).toEqual([]);
      expect(Object.keys(byName.service_list!.inputSchema.properties!)).toEqual(['folderId', 'limit', 'cursor']);
      // The spec's service_share: fileId (required) and options, and nothing else (a folder has its own tool).
      expect(byName.service_share!.inputSchema.required).toEqual(['fileId']);
      expect(Object.keys(byName.service_share!.inputSchema.properties!)).toEqual(['fileId', 'options']);
      expect(byName.service_share_folder!.inputSchema.required).toEqual(['folderId']);
      expect(Object.keys(byName.service_share_folder!.inputSchema.properties!)).toEqual(['folderId', 'options']);
      // One options object: service_share's, less the version pin for a folder, less what a live link keeps for a change.
      const optionsOf = (name: string) =>
        Object.keys((byName[name]!.inputSchema.properties!.options as { properties: Record<string, unknown> }).properties);
      const shareOptions = optionsOf('service_share');
      expect(shareOptions).toEqual(
        expect.arrayContaining(['maxVisits', 'password', 'expiresInDays', 'emailAllowlist', 'notify', 'watermarkText', 'slug']),
      );
      expect(optionsOf('service_share_folder')).toEqual(shareOptions.filter((name) => name !== 'lockedVersionId'));
      expect(byName.service_update_share!.inputSchema.required).toEqual(['shareId', 'options']);
      expect(Object.keys(byName.service_update_share!.inputSchema.properties!)).toEqual(['shareId', 'options']);
      expect(optionsOf('service_update_share')).toEqual(
        shareOptions.filter((name) => !['oneTime', 'slug', 'lockedVersionId'].includes(name)),
      );
      expect(byName.service_read!.inputSchema.required).toEqual(['fileId']);
      expect(byName.service_create_folder!.inputSchema.required).toEqual(['name']);
    });

    it('service_list without limit and cursor answers as before; with them it pages', async () => {
      const names = [unique('page-a'), unique('page-b'), unique('page-c')];
      for (const name of names) await ok('service_upload', { content: 'x', name, kind: 'TEXT' });
      const whole = await ok('service_list');
      expect(Object.keys(whole)).toEqual(['files']);
      const direct = await unwrap(alice.api.GET('/api/v1/files'));
      // The same files in the same order (their scans may settle between the two calls).
      expect(whole.files.map((file) => file.id)).toEqual(direct.files.map((file) => file.id));

      const seen: string[] = [];
      let cursor: string | null | undefined;
      let pages = 0;
      do {
        const page = await ok('service_list', { limit: 2, ...(cursor ? { cursor } : {}) });
        expect(page.files.length).toBeLessThanOrEqual(2);
        expect(page).toHaveProperty('nextCursor');
        seen.push(...page.files.map((file) => file.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 50);
      expect(seen).toEqual(direct.files.map((file) => file.id));

      schemaError(await call('service_list', { limit: 0 }), 'limit');
      expect(errorBody(await call('service_list', { cursor: 'not-a-cursor' }))).toMatchObject({
        code: 'VALIDATION',
        status: 400,
      });
    });

    it('creates folders, lists the tree nested, and renames and moves folders', async () => {
      const [parentName, childName, newName] = [unique('parent'), unique('child'), unique('renamed')];
      const { folder: parent } = await ok('service_create_folder', { name: parentName });
      expect(parent).toMatchObject({ name: parentName, parentId: null });
      const { folder: child } = await ok('service_create_folder', { name: childName, parentId: parent.id });
      expect(child.parentId).toBe(parent.id);

      const tree = await ok('service_folders');
      const listed = findFolder(tree.folders, parent.id)!;
      expect(tree.folders.map((folder) => folder.id)).toContain(parent.id);
      expect(listed.children).toEqual([
        expect.objectContaining({ id: child.id, name: childName, parentId: parent.id, children: [] }),
      ]);

      expect(errorBody(await call('service_create_folder', { name: childName, parentId: parent.id }))).toMatchObject({
        code: 'DUPLICATE',
        status: 409,
      });

      const renamed = await ok('service_move', { folderId: child.id, name: newName });
      expect(renamed.folder).toMatchObject({ id: child.id, name: newName, parentId: parent.id });
      const lifted = await ok('service_move', { folderId: child.id, parentId: null });
      expect(lifted.folder).toMatchObject({ id: child.id, parentId: null });
      expect(findFolder((await ok('service_folders')).folders, parent.id)!.children).toEqual([]);
      expect(errorBody(await call('service_move', { folderId: parent.id, parentId: parent.id }))).toMatchObject({
        code: 'CONFLICT',
        status: 409,
      });
    });

    it('uploads into a folder, renames and moves the file, and reads its text byte for byte', async () => {
      const finalName = unique('final.md');
      const { folder } = await ok('service_create_folder', { name: unique('docs') });
      const content = '\uFEFF# Überschrift 标题 😀\r\n\r\n\tindented  \n<b>a & "b"</b>\n';
      const file = await cleanFile(unique('draft.md'), content, folder.id);
      expect(file.folderId).toBe(folder.id);
      expect((await ok('service_list', { folderId: folder.id })).files.map((listed) => listed.id)).toEqual([file.id]);

      const moved = await ok('service_move', { fileId: file.id, name: finalName, folderId: null });
      expect(moved.file).toMatchObject({ id: file.id, name: finalName, folderId: null, versionNo: 1 });
      expect((await ok('service_list', { folderId: folder.id })).files).toEqual([]);

      const read = await ok('service_read', { fileId: file.id });
      expect(read).toEqual({
        fileId: file.id,
        name: finalName,
        mediaType: 'text/markdown',
        versionId: moved.file!.currentVersionId,
        versionNo: 1,
        text: content,
      });
      expect(Buffer.from(read.text, 'utf8').equals(Buffer.from(content, 'utf8'))).toBe(true);

      const back = await ok('service_move', { fileId: file.id, folderId: folder.id });
      expect(back.file).toMatchObject({ folderId: folder.id, name: finalName });
      expect(errorBody(await call('service_move', { fileId: file.id, name: finalName.replace(/\.md$/, '.html') }))).toMatchObject(
        {
          code: 'VALIDATION',
        },
      );
      expect(errorBody(await call('service_move', { fileId: file.id }))).toMatchObject({ code: 'VALIDATION', status: 400 });
      expect(errorBody(await call('service_move', { fileId: file.id, parentId: null }))).toMatchObject({ code: 'VALIDATION' });
    });

    it('lists shares, shows and changes a share, and removes a limit again with null', async () => {
      const file = await cleanFile(unique('shared.md'), '# shared\n');
      const first = await ok('service_share', { fileId: file.id });
      const second = await ok('service_share', { fileId: file.id, options: { password: 'secret-pw' } });

      const mine = await ok('service_list_shares', { fileId: file.id });
      expect(mine.shares.map((share) => share.id)).toEqual([second.share.id, first.share.id]);
      expect(mine).not.toHaveProperty('nextCursor');
      const firstPage = await ok('service_list_shares', { fileId: file.id, limit: 1 });
      expect(firstPage.shares.map((share) => share.id)).toEqual([second.share.id]);
      const secondPage = await ok('service_list_shares', { fileId: file.id, limit: 1, cursor: firstPage.nextCursor });
      expect(secondPage.shares.map((share) => share.id)).toEqual([first.share.id]);
      expect((await ok('service_list_shares')).shares.map((share) => share.id)).toEqual(
        expect.arrayContaining([first.share.id, second.share.id]),
      );

      const capped = await ok('service_update_share', {
        shareId: first.share.id,
        options: { maxVisits: 5, watermarkText: 'internal' },
      });
      expect(capped.share).toMatchObject({
        id: first.share.id,
        maxVisits: 5,
        watermarkText: 'internal',
        token: first.share.token,
      });
      const direct = await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: first.share.id } } }));
      expect(direct.maxVisits).toBe(5);

      const uncapped = await ok('service_update_share', {
        shareId: first.share.id,
        options: { maxVisits: null, watermarkText: null },
      });
      expect(uncapped.share).toMatchObject({ maxVisits: null, watermarkText: null });
      const opened = await ok('service_update_share', {
        shareId: second.share.id,
        options: { password: null, expiresInDays: 3 },
      });
      expect(opened.share).toMatchObject({ hasPassword: false, expiresAt: expect.any(String) });

      const before = await ok('service_get_share', { shareId: first.share.id });
      expect(before).toEqual({
        share: expect.objectContaining({ id: first.share.id, maxVisits: null }),
        policies: { oneSession: false, emailAllowlist: [] },
      });
      await ok('service_update_share', {
        shareId: first.share.id,
        options: { oneSession: true, emailAllowlist: ['reader@example.com'] },
      });
      const after = await ok('service_get_share', { shareId: first.share.id });
      expect(after.policies).toEqual({ oneSession: true, emailAllowlist: ['reader@example.com'] });
      expect(after.share.requireLogin).toBe(true);
      await ok('service_update_share', { shareId: first.share.id, options: { emailAllowlist: [] } });
      expect((await ok('service_get_share', { shareId: first.share.id })).policies.emailAllowlist).toEqual([]);

      expect(errorBody(await call('service_update_share', { shareId: first.share.id, options: {} }))).toMatchObject({
        code: 'VALIDATION',
        status: 400,
      });
      schemaError(await call('service_update_share', { shareId: first.share.id }), 'options');
      schemaError(await call('service_update_share', { shareId: first.share.id, options: { maxVisits: 0 } }), 'maxVisits');
      // The earlier flat form is refused by name, alone or beside options, and changes nothing.
      schemaError(await call('service_update_share', { shareId: first.share.id, maxVisits: 2 }), 'maxVisits');
      schemaError(
        await call('service_update_share', { shareId: first.share.id, options: { maxVisits: 2 }, password: 'flat-pw' }),
        'password',
      );
      schemaError(await call('service_update_share', { shareId: first.share.id, options: { slug: 'renamed' } }), 'slug');
      expect(await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: first.share.id } } }))).toMatchObject({
        maxVisits: null,
        hasPassword: false,
        token: first.share.token,
      });
      await ok('service_revoke', { shareId: second.share.id });
      expect(
        errorBody(await call('service_update_share', { shareId: second.share.id, options: { maxVisits: 2 } })),
      ).toMatchObject({
        code: 'CONFLICT',
        status: 409,
      });
    });

    it('service_share_folder makes a folder link with options, which service_update_share changes like any link', async () => {
      const { folder } = await ok('service_create_folder', { name: unique('shelf') });
      const file = await cleanFile(unique('on-shelf.md'), '# on the shelf\n', folder.id);
      const { share, url } = await ok('service_share_folder', {
        folderId: folder.id,
        options: { password: 'shelf-pw', maxVisits: 4, notify: 'first' },
      });
      expect(share).toMatchObject({ folderId: folder.id, hasPassword: true, maxVisits: 4, visitCount: 0 });
      expect(share).not.toHaveProperty('fileId');
      expect(url).toBe(`${app.baseUrl}/s/${alice.segment}/${share.token}`);
      // The same share the REST route made: the service's own record of it.
      const direct = await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: share.id } } }));
      expect(direct).toMatchObject({ id: share.id, folderId: folder.id, maxVisits: 4, hasPassword: true, notify: 'first' });
      expect((await ok('service_list_shares', { folderId: folder.id })).shares.map((item) => item.id)).toEqual([share.id]);
      expect((await ok('service_list_shares', { fileId: file.id })).shares).toEqual([]);

      const changed = await ok('service_update_share', { shareId: share.id, options: { maxVisits: null, password: null } });
      expect(changed.share).toMatchObject({ id: share.id, folderId: folder.id, maxVisits: null, hasPassword: false });

      const { folder: bobsFolder } = await unwrap(bob.api.POST('/api/v1/folders', { body: { name: unique('bobs') } }));
      expect(errorBody(await call('service_share_folder', { folderId: bobsFolder.id }))).toMatchObject({
        code: 'NOT_FOUND',
        status: 404,
      });
      schemaError(
        await call('service_share_folder', { folderId: folder.id, options: { lockedVersionId: 'v1' } }),
        'lockedVersionId',
      );
      schemaError(await call('service_share', { folderId: folder.id }), 'fileId');
    });

    it('reports visits, analytics, abuse reports and visit notifications of a share', async () => {
      const visitedName = unique('visited.md');
      const file = await cleanFile(visitedName, '# visited\n');
      const { share, url } = await ok('service_share', { fileId: file.id });
      await ok('service_update_share', { shareId: share.id, options: { notify: 'every' } });

      const visited = await fetch(url, { headers: { 'user-agent': CHROME, referer: 'https://chat.example/room' } });
      expect(visited.status).toBe(200);
      await visited.text();

      const page = await eventually(
        () => ok('service_visits', { shareId: share.id }),
        (result) => result.visits.length >= 1,
      );
      expect(page.nextCursor).toBeNull();
      expect(page.visits).toEqual([
        expect.objectContaining({ automated: false, device: 'desktop', userAgent: CHROME, referer: 'https://chat.example/room' }),
      ]);
      expect((await ok('service_visits', { shareId: share.id, automated: true })).visits).toEqual([]);
      expect((await ok('service_visits', { shareId: share.id, from: '2999-01-01T00:00:00Z' })).visits).toEqual([]);

      const analytics = await ok('service_analytics', { shareId: share.id, days: 7 });
      expect(analytics.days).toHaveLength(7);
      expect(analytics).toMatchObject({ humanVisits: 1, automatedVisits: 0 });
      expect(analytics.topReferrers).toEqual([{ name: 'chat.example', visits: 1 }]);

      expect(await ok('service_reports', { shareId: share.id })).toEqual({ reports: [], nextCursor: null });
      const reportUrl = `${url}/report`;
      const form = await fetch(reportUrl, { headers: { 'user-agent': CHROME } });
      expect(form.status).toBe(200);
      await form.text();
      const cookie = form.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ');
      const reported = await fetch(reportUrl, {
        method: 'POST',
        body: new URLSearchParams({ reason: 'Phishing page asking for bank logins' }),
        headers: { 'user-agent': CHROME, origin: new URL(app.baseUrl).origin, ...(cookie ? { cookie } : {}) },
      });
      expect(reported.status).toBe(200);
      const reports = await ok('service_reports', { shareId: share.id, limit: 10 });
      expect(reports.reports).toEqual([
        expect.objectContaining({ reason: 'Phishing page asking for bank logins', status: 'open', resolvedAt: null }),
      ]);

      const notified = await eventually(
        () => ok('service_notifications', { unread: true }),
        (result) => result.notifications.some((notification) => notification.shareId === share.id),
      );
      expect(notified.notifications.find((notification) => notification.shareId === share.id)).toMatchObject({
        kind: 'visit',
        fileName: visitedName,
        readAt: null,
      });
      expect(notified.unreadCount).toBeGreaterThanOrEqual(1);
      const paged = await ok('service_notifications', { limit: 1 });
      expect(paged.notifications).toHaveLength(1);
      expect(paged).toHaveProperty('nextCursor');
      const visitNotification = notified.notifications.find((notification) => notification.shareId === share.id)!;
      const marked = await ok('service_mark_read', { ids: [visitNotification.id] });
      expect(marked.unreadCount).toBe(notified.unreadCount - 1);
      const after = await ok('service_notifications', { unread: true });
      expect(after.notifications.some((notification) => notification.id === visitNotification.id)).toBe(false);
      expect(await ok('service_mark_read', {})).toEqual({ unreadCount: 0 });

      expect(errorBody(await call('service_visits', { shareId: 'no-such-share' }))).toMatchObject({ code: 'NOT_FOUND' });
      schemaError(await call('service_analytics', { shareId: share.id, days: 366 }), 'days');
    });

    it('moves a file to the trash, restores it, and purges it for good', async () => {
      const trashedName = unique('trashed.md');
      const file = await cleanFile(trashedName, '# trash me\n');
      const { share } = await ok('service_share', { fileId: file.id });

      const deleted = await ok('service_delete', { fileId: file.id });
      expect(deleted).toEqual({ file: expect.objectContaining({ id: file.id, name: trashedName }) });
      expect(errorBody(await call('service_get', { fileId: file.id }))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
      expect(errorBody(await call('service_read', { fileId: file.id }))).toMatchObject({ code: 'NOT_FOUND' });
      const trash = await ok('service_trash');
      expect(trash.files).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: file.id, deletedAt: expect.any(String) })]),
      );

      const restored = await ok('service_restore', { fileId: file.id });
      expect(restored).toMatchObject({ file: { id: file.id, name: trashedName }, renamed: false });
      expect((await ok('service_read', { fileId: file.id })).text).toBe('# trash me\n');
      const shareAfter = await unwrap(alice.api.GET('/api/v1/shares/{id}', { params: { path: { id: share.id } } }));
      expect(shareAfter.revokedAt).toEqual(expect.any(String));

      await ok('service_delete', { fileId: file.id });
      const purged = await ok('service_purge', { fileId: file.id });
      expect(purged).toEqual({ purgedFiles: 1, freedBytes: expect.any(Number) });
      expect(purged.freedBytes).toBeGreaterThan(0);
      expect((await ok('service_trash')).files.map((item) => item.id)).not.toContain(file.id);
      expect(errorBody(await call('service_restore', { fileId: file.id }))).toMatchObject({ code: 'NOT_FOUND' });

      const events = await ok('service_activity', { limit: 200 });
      const actions = events.events.filter((event) => event.targetId === file.id).map((event) => event.action);
      expect(actions).toEqual(expect.arrayContaining(['file.deleted', 'file.restored', 'file.purged']));
      const firstEvent = await ok('service_activity', { limit: 1 });
      expect(firstEvent.events).toHaveLength(1);
      expect(firstEvent.nextCursor).toEqual(expect.any(String));
    });

    it('trashes, restores and purges a folder with its files, and empties the trash', async () => {
      const { folder } = await ok('service_create_folder', { name: unique('box') });
      const file = await cleanFile(unique('inside.md'), '# inside\n', folder.id);

      const deleted = await ok('service_delete', { folderId: folder.id });
      expect(deleted).toEqual({ folder: expect.objectContaining({ id: folder.id }) });
      expect(errorBody(await call('service_get', { fileId: file.id }))).toMatchObject({ code: 'NOT_FOUND' });
      const trash = await ok('service_trash');
      expect(trash.folders).toEqual(expect.arrayContaining([expect.objectContaining({ id: folder.id, fileCount: 1 })]));
      expect(trash.files.map((item) => item.id)).not.toContain(file.id);

      expect(await ok('service_restore', { folderId: folder.id })).toMatchObject({ folder: { id: folder.id }, renamed: false });
      expect((await ok('service_get', { fileId: file.id })).file.folderId).toBe(folder.id);

      await ok('service_delete', { folderId: folder.id });
      expect(await ok('service_purge', { folderId: folder.id })).toMatchObject({ purgedFiles: 1 });

      const loose = await cleanFile(unique('loose.md'), '# loose\n');
      await ok('service_delete', { fileId: loose.id });
      const emptied = await ok('service_purge', { all: true });
      expect(emptied.purgedFiles).toBeGreaterThanOrEqual(1);
      expect(await ok('service_trash')).toEqual({ folders: [], files: [] });
    });

    it('refuses contradicting or missing targets before calling the service', async () => {
      for (const [tool, args] of [
        ['service_delete', {}],
        ['service_delete', { fileId: 'a', folderId: 'b' }],
        ['service_restore', {}],
        ['service_purge', {}],
        ['service_purge', { fileId: 'a', all: true }],
        ['service_move', { name: 'x.md' }],
      ] as const) {
        expect(errorBody(await call(tool, args)), `${tool} ${JSON.stringify(args)}`).toMatchObject({
          code: 'VALIDATION',
          status: 400,
        });
      }
    });

    it("answers NOT_FOUND for another account's file or share, whatever the tool", async () => {
      for (const [tool, args] of [
        ['service_read', { fileId: bobsFile.id }],
        ['service_get', { fileId: bobsFile.id }],
        ['service_move', { fileId: bobsFile.id, name: 'taken.md' }],
        ['service_delete', { fileId: bobsFile.id }],
        ['service_restore', { fileId: bobsFile.id }],
        ['service_purge', { fileId: bobsFile.id }],
        ['service_update_share', { shareId: bobsShare.id, options: { maxVisits: 1 } }],
        ['service_visits', { shareId: bobsShare.id }],
        ['service_analytics', { shareId: bobsShare.id }],
        ['service_get_share', { shareId: bobsShare.id }],
        ['service_reports', { shareId: bobsShare.id }],
      ] as const) {
        expect(errorBody(await call(tool, args)), tool).toEqual({ code: 'NOT_FOUND', status: 404, message: expect.any(String) });
      }
      expect((await ok('service_list_shares', { fileId: bobsFile.id })).shares).toEqual([]);
      const untouched = await unwrap(bob.api.GET('/api/v1/files/{id}', { params: { path: { id: bobsFile.id } } }));
      expect(untouched.name).toBe('bobs-secret.md');
      const share = await unwrap(bob.api.GET('/api/v1/shares/{id}', { params: { path: { id: bobsShare.id } } }));
      expect(share).toMatchObject({ maxVisits: null, revokedAt: null });
    });

    it('answers INFECTED when reading a quarantined file', async () => {
      expect(errorBody(await call('service_read', { fileId: quarantined.id }))).toEqual({
        code: 'INFECTED',
        status: 409,
        message: expect.any(String),
      });
    });

    it('serves documents as resources: the template, the list and the text', async () => {
      const content = '<!doctype html><title>r</title><p>résumé</p>\n';
      const resourceName = unique('resource.html');
      const { file } = await ok('service_upload', { content, name: resourceName, kind: 'HTML' });
      await waitForScan(alice.console, file.id);

      expect(connected.client.getServerCapabilities()?.resources).toBeDefined();
      const { resourceTemplates } = await connected.client.listResourceTemplates();
      expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'sharedown://files/{id}' })]);

      const { resources } = await connected.client.listResources();
      expect(resources).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            uri: `sharedown://files/${file.id}`,
            name: resourceName,
            mimeType: 'text/html',
            size: Buffer.byteLength(content),
          }),
          expect.objectContaining({ uri: `sharedown://files/${quarantined.id}`, mimeType: 'text/plain' }),
        ]),
      );
      expect(resources.map((resource) => resource.uri)).not.toContain(`sharedown://files/${bobsFile.id}`);

      const read = await connected.client.readResource({ uri: `sharedown://files/${file.id}` });
      expect(read.contents).toEqual([{ uri: `sharedown://files/${file.id}`, mimeType: 'text/html', text: content }]);
    });

    it("answers a resource read of another account's file or a quarantined one with a JSON-RPC error", async () => {
      const foreign = await connected.client.readResource({ uri: `sharedown://files/${bobsFile.id}` }).catch((error) => error);
      expect(foreign).toMatchObject({ code: -32002, data: { code: 'NOT_FOUND', status: 404 } });
      const infected = await connected.client
        .readResource({ uri: `sharedown://files/${quarantined.id}` })
        .catch((error) => error);
      expect(infected).toMatchObject({ data: { code: 'INFECTED', status: 409 } });
      expect(infected.message).toContain('INFECTED');
    });
  });
});
