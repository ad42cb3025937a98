import { unwrap } from '@sharedown/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, createUser, type TestUser } from '../support/app.js';
import { HttpVisitor, getShare, isDocument, waitForScan } from '../support/browser.js';
import { startTopology, type Topology } from '../support/topology.js';

const CAP = 8;
const MARKER = 'A chapter of the shared folder.';

function listed(body: string): string[] {
  return [...body.matchAll(/data-file="([0-9a-f-]{36})"/g)].map((match) => match[1]!);
}

describe.skipIf(backend !== 'services')('collections in the production topology (proxy, two api replicas, RENDER_URL)', () => {
  let topology: Topology;
  let alice: TestUser;
  let folderId: string;
  let fileId: string;

  beforeAll(async () => {
    topology = await startTopology();
    alice = await createUser(topology.url);
    folderId = (await unwrap(alice.api.POST('/api/v1/folders', { body: { name: 'Chapters' } }))).folder.id;
    const form = new FormData();
    form.append('file', new Blob([`# Chapter\n\n${MARKER}\n`], { type: 'text/plain' }), 'chapter.md');
    form.append('folderId', folderId);
    const uploaded = await fetch(`${topology.url}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: form,
    });
    fileId = ((await uploaded.json()) as { file: { id: string } }).file.id;
    await waitForScan(alice, fileId, 'CLEAN');
  });
  afterAll(async () => {
    await topology?.close();
  });

  const pin = (replica: number) => topology.proxy.pin(replica);

  it(`maxVisits ${CAP}: ${3 * CAP} parallel visitors over both replicas, exactly ${CAP} admitted, their documents count nothing`, async () => {
    const { share, url } = await unwrap(alice.api.POST('/api/v1/shares', { body: { folderId, maxVisits: CAP } }));
    const path = new URL(url).pathname;
    // The link is on PUBLIC_URL; the viewer sends it on to RENDER_URL, documents included.
    const onPublic = await new HttpVisitor(topology.url).get(`${path}/d/${fileId}`);
    expect(onPublic).toMatchObject({ status: 302, location: `${topology.renderUrl}${path}/d/${fileId}` });

    const visitors = Array.from({ length: 3 * CAP }, (_, i) => new HttpVisitor(topology.renderUrl, `Reader/${i}`));
    const pages = await Promise.all(visitors.map((visitor, i) => visitor.get(path, pin(i % 2))));
    expect(pages.filter((page) => page.status === 200)).toHaveLength(CAP);
    expect(pages.filter((page) => page.status === 410)).toHaveLength(2 * CAP);
    const admitted = visitors.filter((_, i) => pages[i]!.status === 200);
    for (const page of pages.filter((answer) => answer.status === 200)) expect(listed(page.body)).toEqual([fileId]);

    // Each admitted reader opens the document on the replica that did not admit it, and on the other.
    const documents = await Promise.all(
      admitted.flatMap((visitor) => [0, 1, 0, 1].map((replica) => visitor.get(`${path}/d/${fileId}`, pin(replica)))),
    );
    expect(documents.every((page) => isDocument(page) && page.body.includes(MARKER))).toBe(true);
    expect(await getShare(alice, share.id)).toMatchObject({ visitCount: CAP, uniqueVisitCount: CAP });

    const deadline = Date.now() + 20_000;
    let logged: Array<{ documents: Array<{ fileId: string }> }> = [];
    while (Date.now() < deadline) {
      logged = (await unwrap(alice.api.GET('/api/v1/shares/{id}/visits', { params: { path: { id: share.id } } }))).visits;
      if (logged.length === CAP) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(logged).toHaveLength(CAP);
    expect(logged.map((visit) => visit.documents.map((read) => read.fileId))).toEqual(Array(CAP).fill([fileId]));
  });
});
