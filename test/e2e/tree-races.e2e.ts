import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { sql } from '../support/browser.js';
import { documentForm, uploadFile } from '../support/uploads.js';

// Parallel changes of one owner's folder tree, files, trash and quota. Every answer is stated
// exactly; a lost race is a clean 409 CONFLICT, never a 500, and no request may hang.
const ROUNDS = 10;
const REQUEST_TIMEOUT_MS = 20_000;

let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.cleanup();
});

interface Answer {
  status: number;
  code?: string;
  body: unknown;
}

/**
 * One request as the user, with the console session (or the API token); a body is sent as JSON,
 * or as multipart when it is a form. A request that hangs fails its test instead of the suite.
 */
async function call(
  user: TestUser,
  method: string,
  path: string,
  body?: unknown,
  as: 'session' | 'token' = 'session',
): Promise<Answer> {
  const auth = as === 'session' ? { cookie: user.cookie } : { authorization: `Bearer ${user.token}` };
  const json = body !== undefined && !(body instanceof FormData);
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { ...auth, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(body) : (body as FormData | undefined),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  const code = response.ok ? undefined : (parsed as { code?: string } | undefined)?.code;
  return { status: response.status, code, body: parsed };
}

/** `200`, or `<status> <code>` for an error: what a test states about an answer. */
function outcome(answer: Answer): string {
  return answer.status === 200 ? '200' : `${answer.status} ${answer.code}`;
}

function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[outcome(answer)] = (counts[outcome(answer)] ?? 0) + 1;
  return counts;
}

async function createFolder(user: TestUser, name: string, parentId?: string): Promise<{ id: string }> {
  const answer = await call(user, 'POST', '/api/console/folders', { name, parentId });
  if (answer.status !== 200) throw new Error(`folder ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return (answer.body as { folder: { id: string } }).folder;
}

const moveFolder = (user: TestUser, id: string, parentId: string | null) =>
  call(user, 'PATCH', `/api/console/folders/${id}`, { parentId });

async function upload(user: TestUser, name: string, content: string, folderId?: string): Promise<string> {
  const { data, response } = await uploadFile(user.api, name, content, folderId ? { folderId } : {});
  if (!response.ok) throw new Error(`upload ${name}: ${response.status}`);
  return data!.file.id;
}

async function addVersion(user: TestUser, fileId: string, name: string, content: string): Promise<void> {
  const { response } = await user.console.POST('/api/console/files/{id}/versions', {
    params: { path: { id: fileId } },
    body: documentForm(name, content) as never,
  });
  if (!response.ok) throw new Error(`version of ${name}: ${response.status}`);
}

async function trashFile(user: TestUser, fileId: string): Promise<void> {
  const answer = await call(user, 'DELETE', `/api/console/files/${fileId}`);
  if (answer.status !== 200) throw new Error(`trash ${fileId}: ${answer.status}`);
}

/** The quota usage the service reports, and the bytes of every version stored for the user. */
async function usage(user: TestUser): Promise<{ usedBytes: number; storedBytes: number }> {
  const session = await call(user, 'GET', '/api/auth/session');
  const [stored] = await sql<{ bytes: string }>(
    app,
    `SELECT coalesce(sum(v.size_bytes), 0) AS bytes FROM file_versions v JOIN files f ON f.id = v.file_id WHERE f.user_id = $1`,
    [user.userId],
  );
  return { usedBytes: (session.body as { user: { usedBytes: number } }).user.usedBytes, storedBytes: Number(stored!.bytes) };
}

/** Folders of the user whose chain of parents never reaches the top level. */
async function foldersInLoops(user: TestUser): Promise<string[]> {
  const rows = await sql<{ id: string; parent_id: string | null }>(app, 'SELECT id, parent_id FROM folders WHERE user_id = $1', [
    user.userId,
  ]);
  const parentOf = new Map(rows.map((row) => [row.id, row.parent_id]));
  return rows
    .filter((row) => {
      let current: string | null | undefined = row.id;
      for (let steps = 0; steps <= rows.length; steps++) {
        current = parentOf.get(current!);
        if (!current) return false;
      }
      return true;
    })
    .map((row) => row.id);
}

async function health(): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${app.baseUrl}/healthz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  return { status: response.status, body: await response.json() };
}

function countFolders(nodes: Array<{ children: unknown[] }>): number {
  return nodes.reduce((sum, node) => sum + 1 + countFolders(node.children as Array<{ children: unknown[] }>), 0);
}

describe('crossing folder moves', () => {
  /** Two top-level folders, each with a child: A/child and B/child. */
  async function crossing(user: TestUser, label: string) {
    const a = await createFolder(user, `A${label}`);
    const aChild = await createFolder(user, 'child', a.id);
    const b = await createFolder(user, `B${label}`);
    const bChild = await createFolder(user, 'child', b.id);
    return { a, aChild, b, bChild };
  }

  /** Exactly one of the two crossing moves won, and the tree shows the winner's move only. */
  async function expectOneWinner(user: TestUser, pair: Awaited<ReturnType<typeof crossing>>, answers: Answer[], label: string) {
    expect(answers.map(outcome).sort(), label).toEqual(['200', '409 CONFLICT']);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.body, label).toEqual({ error: '不能把文件夹移动到它自身或其子文件夹中', code: 'CONFLICT' });
    }
    const rows = await sql<{ id: string; parent_id: string | null }>(
      app,
      'SELECT id, parent_id FROM folders WHERE id = ANY($1)',
      [[pair.a.id, pair.b.id]],
    );
    const parents = Object.fromEntries(rows.map((row) => [row.id, row.parent_id]));
    const aWon = answers[0]!.status === 200;
    expect(parents, label).toEqual(
      aWon ? { [pair.a.id]: pair.bChild.id, [pair.b.id]: null } : { [pair.a.id]: null, [pair.b.id]: pair.aChild.id },
    );
  }

  it(`${ROUNDS} rounds of A under B/child racing B under A/child: one move wins, the other is a 409, and no loop forms`, async () => {
    const user = await createUser(app.baseUrl);
    for (let round = 1; round <= ROUNDS; round++) {
      const pair = await crossing(user, `${round}`);
      // The tree and the trash walk the folders while the moves run.
      const [first, second, ...reads] = await Promise.all([
        moveFolder(user, pair.a.id, pair.bChild.id),
        moveFolder(user, pair.b.id, pair.aChild.id),
        ...Array.from({ length: 4 }, () => call(user, 'GET', '/api/console/folders')),
        ...Array.from({ length: 2 }, () => call(user, 'GET', '/api/console/trash')),
      ]);
      await expectOneWinner(user, pair, [first!, second!], `round ${round}`);
      expect(reads.map(outcome), `round ${round}`).toEqual(Array(6).fill('200'));
    }
    expect(await foldersInLoops(user)).toEqual([]);
    const tree = await call(user, 'GET', '/api/console/folders');
    expect(tree.status).toBe(200);
    const roots = (tree.body as { folders: Array<{ children: unknown[] }> }).folders;
    expect(roots).toHaveLength(ROUNDS);
    expect(countFolders(roots)).toBe(4 * ROUNDS);
    expect(await health()).toMatchObject({ status: 200, body: { ok: true, database: 'up' } });
  });

  it(`${ROUNDS} crossing pairs at once (${2 * ROUNDS} moves and ${ROUNDS} tree reads in parallel) leave no loop`, async () => {
    const user = await createUser(app.baseUrl);
    const pairs = [];
    for (let round = 1; round <= ROUNDS; round++) pairs.push(await crossing(user, `${round}`));
    const answers = await Promise.all([
      ...pairs.flatMap((pair) => [moveFolder(user, pair.a.id, pair.bChild.id), moveFolder(user, pair.b.id, pair.aChild.id)]),
      ...Array.from({ length: ROUNDS }, () => call(user, 'GET', '/api/console/folders')),
    ]);
    for (const [index, pair] of pairs.entries()) {
      await expectOneWinner(user, pair, answers.slice(2 * index, 2 * index + 2), `pair ${index + 1}`);
    }
    expect(answers.slice(2 * ROUNDS).map(outcome)).toEqual(Array(ROUNDS).fill('200'));
    expect(await foldersInLoops(user)).toEqual([]);
    const tree = await call(user, 'GET', '/api/console/folders');
    expect(tree.status).toBe(200);
    const roots = (tree.body as { folders: Array<{ children: unknown[] }> }).folders;
    expect(roots).toHaveLength(ROUNDS);
    expect(countFolders(roots)).toBe(4 * ROUNDS);
    expect(await health()).toMatchObject({ status: 200, body: { ok: true, database: 'up' } });
  });
});

describe('a corrupt tree with a loop', () => {
  it('makes no folder query recurse without end: every request answers and the service stays healthy', async () => {
    const user = await createUser(app.baseUrl);
    const x = await createFolder(user, 'X');
    const y = await createFolder(user, 'Y', x.id);
    const z = await createFolder(user, 'Z');
    await upload(user, 'inside.md', 'i'.repeat(40), y.id);
    // Written by hand: X and Y become each other's parent, reachable from no top-level folder.
    await sql(app, 'UPDATE folders SET parent_id = $2 WHERE id = $1', [x.id, y.id]);
    expect((await foldersInLoops(user)).sort()).toEqual([x.id, y.id].sort());

    // Checks that walk the loop stop at the depth limit and refuse.
    const tooDeep = { error: '文件夹最多只能嵌套 256 层', code: 'VALIDATION' };
    expect((await moveFolder(user, z.id, x.id)).body).toEqual(tooDeep);
    expect((await moveFolder(user, x.id, z.id)).body).toEqual(tooDeep);
    expect((await call(user, 'POST', '/api/console/folders', { name: 'deeper', parentId: y.id })).body).toEqual(tooDeep);

    expect(outcome(await call(user, 'DELETE', `/api/console/folders/${x.id}`))).toBe('200');
    // Y now looks trashed on its own, so the trash counts the files below X and below Y, walking the loop.
    await sql(app, `UPDATE folders SET deleted_at = deleted_at - interval '1 minute' WHERE id = $1`, [y.id]);
    const reads = await Promise.all([
      ...Array.from({ length: 25 }, () => call(user, 'GET', '/api/console/trash')),
      ...Array.from({ length: 5 }, () => call(user, 'GET', '/api/console/folders')),
    ]);
    expect(reads.map(outcome)).toEqual(Array(30).fill('200'));
    const trash = reads[0]!.body as { folders: Array<{ id: string; fileCount: number }>; files: Array<{ name: string }> };
    expect(trash.folders.map((folder) => [folder.id, folder.fileCount])).toEqual([
      [x.id, 1],
      [y.id, 0],
    ]);
    expect(trash.files.map((file) => file.name)).toEqual(['inside.md']);
    expect(await health()).toMatchObject({ status: 200, body: { ok: true, database: 'up' } });

    const purged = await call(user, 'DELETE', `/api/console/trash/folders/${x.id}`);
    expect(purged.body).toEqual({ purgedFiles: 1, freedBytes: 40 });
    expect(await sql(app, 'SELECT id FROM folders WHERE user_id = $1', [user.userId])).toEqual([{ id: z.id }]);
    expect(await usage(user)).toEqual({ usedBytes: 0, storedBytes: 0 });
  });
});

describe('the depth limit', () => {
  it('allows 256 levels, refuses a 257th by creation or by move, and trashes a full-depth tree whole', async () => {
    const user = await createUser(app.baseUrl);
    const top = await createFolder(user, 'level-1');
    // Levels 2‥255 written in one statement: each folder is the parent of the next.
    const ids = [top.id, ...Array.from({ length: 254 }, () => crypto.randomUUID())];
    await sql(
      app,
      `INSERT INTO folders (id, user_id, parent_id, name)
       SELECT id, $1, parent, 'level-' || n FROM unnest($2::uuid[], $3::uuid[]) WITH ORDINALITY AS chain(id, parent, n)`,
      [user.userId, ids.slice(1), ids.slice(0, -1)],
    );
    const level254 = ids[253]!;
    const level255 = ids[254]!;
    const tooDeep = { error: '文件夹最多只能嵌套 256 层', code: 'VALIDATION' };

    const level256 = await createFolder(user, 'level-256', level255);
    expect((await call(user, 'POST', '/api/console/folders', { name: 'level-257', parentId: level256.id })).body).toEqual(
      tooDeep,
    );
    // A folder with one sub-folder spans two levels: it fits below level 254, not below level 255.
    const pair = await createFolder(user, 'pair');
    await createFolder(user, 'inner', pair.id);
    expect((await moveFolder(user, pair.id, level255)).body).toEqual(tooDeep);
    expect(outcome(await moveFolder(user, pair.id, level254))).toBe('200');

    expect(outcome(await call(user, 'DELETE', `/api/console/folders/${top.id}`))).toBe('200');
    const [live] = await sql<{ n: number }>(
      app,
      'SELECT count(*)::int AS n FROM folders WHERE user_id = $1 AND deleted_at IS NULL',
      [user.userId],
    );
    expect(live!.n).toBe(0);
    const trash = await call(user, 'GET', '/api/console/trash');
    expect((trash.body as { folders: Array<{ id: string }> }).folders.map((folder) => folder.id)).toEqual([top.id]);
    expect((await call(user, 'DELETE', '/api/console/trash')).body).toEqual({ purgedFiles: 0, freedBytes: 0 });
    expect(await sql(app, 'SELECT id FROM folders WHERE user_id = $1', [user.userId])).toEqual([]);
  });
});

describe('purging', () => {
  it(`${ROUNDS} parallel purges of one trashed file: one 200, the rest 404, and its bytes are released once`, async () => {
    const user = await createUser(app.baseUrl);
    await upload(user, 'keep.md', 'k'.repeat(1000));
    for (let round = 1; round <= 3; round++) {
      const name = `target-${round}.md`;
      const fileId = await upload(user, name, 'a'.repeat(3000));
      await addVersion(user, fileId, name, 'b'.repeat(2000));
      await trashFile(user, fileId);
      expect(await usage(user)).toEqual({ usedBytes: 6000, storedBytes: 6000 });

      const answers = await Promise.all(
        Array.from({ length: ROUNDS }, () => call(user, 'DELETE', `/api/console/trash/files/${fileId}`)),
      );
      expect(tally(answers), `round ${round}`).toEqual({ '200': 1, '404 NOT_FOUND': ROUNDS - 1 });
      expect(answers.find((answer) => answer.status === 200)!.body).toEqual({ purgedFiles: 1, freedBytes: 5000 });
      expect(answers.find((answer) => answer.status === 404)!.body).toEqual({ error: '回收站中没有该文件', code: 'NOT_FOUND' });
      expect(await usage(user), `round ${round}`).toEqual({ usedBytes: 1000, storedBytes: 1000 });
    }
  });

  it('purging a file and a folder while the trash is emptied, 8 times: no 500, and the quota matches what is stored', async () => {
    const user = await createUser(app.baseUrl);
    await upload(user, 'keep.md', 'k'.repeat(700));
    for (let round = 1; round <= 8; round++) {
      const single = await upload(user, `single-${round}.md`, 's'.repeat(300));
      await addVersion(user, single, `single-${round}.md`, 't'.repeat(200));
      const other = await upload(user, `other-${round}.txt`, 'o'.repeat(120));
      const folder = await createFolder(user, `old-${round}`);
      await upload(user, `inner-${round}.md`, 'f'.repeat(80), folder.id);
      await trashFile(user, single);
      await trashFile(user, other);
      expect(outcome(await call(user, 'DELETE', `/api/console/folders/${folder.id}`))).toBe('200');
      expect(await usage(user)).toEqual({ usedBytes: 1400, storedBytes: 1400 });

      const [file, folderPurge, all] = await Promise.all([
        call(user, 'DELETE', `/api/console/trash/files/${single}`),
        call(user, 'DELETE', `/api/console/trash/folders/${folder.id}`),
        call(user, 'DELETE', '/api/console/trash'),
      ]);
      const label = `round ${round}`;
      expect(['200', '404 NOT_FOUND'], label).toContain(outcome(file!));
      expect(['200', '404 NOT_FOUND'], label).toContain(outcome(folderPurge!));
      expect(outcome(all!), label).toBe('200');
      // Whatever the single purges got, emptying the trash took the rest: every file and byte once.
      const fileGot = file!.status === 200 ? { purgedFiles: 1, freedBytes: 500 } : { purgedFiles: 0, freedBytes: 0 };
      const folderGot = folderPurge!.status === 200 ? { purgedFiles: 1, freedBytes: 80 } : { purgedFiles: 0, freedBytes: 0 };
      if (file!.status === 200) expect(file!.body, label).toEqual(fileGot);
      if (folderPurge!.status === 200) expect(folderPurge!.body, label).toEqual(folderGot);
      expect(all!.body, label).toEqual({
        purgedFiles: 3 - fileGot.purgedFiles - folderGot.purgedFiles,
        freedBytes: 700 - fileGot.freedBytes - folderGot.freedBytes,
      });
      expect(await usage(user), label).toEqual({ usedBytes: 700, storedBytes: 700 });
      expect((await call(user, 'GET', '/api/console/trash')).body, label).toEqual({ folders: [], files: [] });
    }
  });
});

describe('shares and the trash', () => {
  it('shares created while their file goes to the trash: each is 200 or 404, the trash 200, and none stays active', async () => {
    const user = await createUser(app.baseUrl);
    for (let round = 1; round <= 8; round++) {
      const fileId = await upload(user, `shared-${round}.md`, 'shared');
      const [trashed, ...shares] = await Promise.all([
        call(user, 'DELETE', `/api/v1/files/${fileId}`, undefined, 'token'),
        ...Array.from({ length: 5 }, () => call(user, 'POST', '/api/v1/shares', { fileId }, 'token')),
      ]);
      const label = `round ${round}`;
      expect(outcome(trashed!), label).toBe('200');
      for (const answer of shares) expect(['200', '404 NOT_FOUND'], label).toContain(outcome(answer));
      const rows = await sql<{ revoked: boolean }>(
        app,
        'SELECT revoked_at IS NOT NULL AS revoked FROM shares WHERE file_id = $1',
        [fileId],
      );
      expect(rows, label).toHaveLength(shares.filter((answer) => answer.status === 200).length);
      expect(
        rows.every((row) => row.revoked),
        label,
      ).toBe(true);
    }
  });
});

describe('one owner changing files and folders from many requests at once', () => {
  it('never deadlocks: every answer is a success or a stated refusal, and quota and tree stay exact', async () => {
    const user = await createUser(app.baseUrl);
    const folders = [];
    for (let index = 0; index < 4; index++) folders.push(await createFolder(user, `F${index}`));
    const files: Array<{ id: string; name: string }> = [];
    for (let index = 0; index < 12; index++) {
      const name = `file-${index}.md`;
      files.push({ id: await upload(user, name, `content ${index}`, folders[index % 4]!.id), name });
    }
    for (const file of files.slice(8)) await trashFile(user, file.id);

    const requests: Array<Promise<Answer>> = [
      ...Array.from({ length: 8 }, (_, index) =>
        call(
          user,
          'POST',
          '/api/v1/files',
          documentForm(`new-${index}.md`, 'n'.repeat(10 + index), { folderId: folders[index % 4]!.id }),
          'token',
        ),
      ),
      ...files
        .slice(0, 4)
        .map((file) => call(user, 'POST', `/api/console/files/${file.id}/versions`, documentForm(file.name, 'second version'))),
      ...files
        .slice(4, 8)
        .map((file, index) => call(user, 'PATCH', `/api/console/files/${file.id}`, { folderId: folders[(index + 1) % 4]!.id })),
      call(user, 'DELETE', `/api/console/folders/${folders[3]!.id}`),
      call(user, 'DELETE', `/api/console/files/${files[0]!.id}`),
      call(user, 'POST', `/api/console/trash/files/${files[8]!.id}/restore`),
      call(user, 'POST', `/api/console/trash/files/${files[9]!.id}/restore`),
      call(user, 'DELETE', `/api/console/trash/files/${files[10]!.id}`),
      call(user, 'DELETE', `/api/console/trash/files/${files[11]!.id}`),
      moveFolder(user, folders[0]!.id, folders[1]!.id),
      moveFolder(user, folders[1]!.id, folders[0]!.id),
      moveFolder(user, folders[2]!.id, folders[3]!.id),
      ...folders.map((folder, index) =>
        call(user, 'POST', '/api/console/folders', { name: `sub-${index}`, parentId: folder.id }),
      ),
      ...Array.from({ length: 4 }, () => call(user, 'GET', '/api/console/folders')),
      ...Array.from({ length: 4 }, () => call(user, 'GET', '/api/console/trash')),
    ];
    const answers = await Promise.all(requests);
    // Stated refusals only: a target trashed meanwhile (404), a move into a loop (409 CONFLICT).
    // A lost race (409 CONFLICT 操作冲突，请重试) or a 500 would show a lock taken out of order.
    for (const answer of answers) expect(['200', '404 NOT_FOUND', '409 CONFLICT']).toContain(outcome(answer));
    for (const refused of answers.filter((answer) => answer.code === 'CONFLICT')) {
      expect((refused.body as { error: string }).error).toBe('不能把文件夹移动到它自身或其子文件夹中');
    }
    expect(answers.filter((answer) => answer.code === 'CONFLICT')).toHaveLength(1);
    expect(await foldersInLoops(user)).toEqual([]);
    const { usedBytes, storedBytes } = await usage(user);
    expect(usedBytes).toBe(storedBytes);
    expect((await call(user, 'GET', '/api/console/folders')).status).toBe(200);
    expect(await health()).toMatchObject({ status: 200, body: { ok: true, database: 'up' } });
  });
});
