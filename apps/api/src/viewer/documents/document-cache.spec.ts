import { describe, expect, it } from 'vitest';
import { RENDERER_MARK } from './content-renderer.js';
import { DocumentCache } from './document-cache.js';
import type { ShareViewRepository } from '../share-view/share-view.repository.js';

/** file_versions in memory: content, the stored rendering, and which versions are CLEAN. */
class VersionsTable {
  readonly rows = new Map<string, { content: string; rendered: string | null; clean: boolean }>();
  reads = 0;
  stored: string[] = [];

  async version(versionId: string, mark: string) {
    this.reads++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const row = this.rows.get(versionId);
    if (!row?.clean) return null;
    const current = row.rendered?.startsWith(mark) ? row.rendered : null;
    return { content: current === null ? row.content : null, rendered: current };
  }

  async storeRendering(versionId: string, rendered: string) {
    this.stored.push(versionId);
    this.rows.get(versionId)!.rendered = rendered;
  }
}

describe(DocumentCache.name, () => {
  const setup = () => {
    const table = new VersionsTable();
    const sut = new DocumentCache(table as unknown as ShareViewRepository);
    return { table, sut };
  };

  it('renders a version once, stores the rendering, and answers concurrent views from one load', async () => {
    const { table, sut } = setup();
    table.rows.set('v1', { content: '# Hi', rendered: null, clean: true });
    const pages = await Promise.all(Array.from({ length: 10 }, () => sut.get('v1', 'MARKDOWN')));
    expect(new Set(pages).size).toBe(1);
    expect(pages[0]!.bytes.toString()).toContain('<h1>Hi</h1>');
    expect(await sut.get('v1', 'MARKDOWN')).toBe(pages[0]);
    expect(table.reads).toBe(1);
    expect(table.stored).toEqual(['v1']);
    expect(table.rows.get('v1')!.rendered!.startsWith(RENDERER_MARK)).toBe(true);
  });

  it('serves the stored rendering without rendering again', async () => {
    const { table, sut } = setup();
    table.rows.set('v1', { content: '# Hi', rendered: `${RENDERER_MARK}<p>stored</p>`, clean: true });
    expect((await sut.get('v1', 'MARKDOWN'))!.bytes.toString()).toBe('<p>stored</p>');
    expect(table.stored).toEqual([]);
  });

  it('serves what it rendered when storing the rendering fails (the database went away since the read)', async () => {
    const { table, sut } = setup();
    table.rows.set('v1', { content: '# Hi', rendered: null, clean: true });
    table.storeRendering = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    expect((await sut.get('v1', 'MARKDOWN'))!.bytes.toString()).toContain('<h1>Hi</h1>');
  });

  it('keeps nothing for a version that is not CLEAN, so it is looked at again', async () => {
    const { table, sut } = setup();
    table.rows.set('v1', { content: 'text', rendered: null, clean: false });
    expect(await sut.get('v1', 'TEXT')).toBeNull();
    table.rows.get('v1')!.clean = true;
    expect((await sut.get('v1', 'TEXT'))!.bytes.toString()).toBe('<p class="sd-text">text</p>');
    expect(table.reads).toBe(2);
  });

  it('serves an author’s HTML as it is, with where its doctype ends, and an empty document too', async () => {
    const { table, sut } = setup();
    table.rows.set('v1', { content: '<!doctype html><p>x</p>', rendered: null, clean: true });
    table.rows.set('v2', { content: '', rendered: null, clean: true });
    const served = await sut.get('v1', 'HTML');
    expect(served!.bytes.toString()).toBe('<!doctype html><p>x</p>');
    expect(served!.doctypeLength).toBe('<!doctype html>'.length);
    expect((await sut.get('v2', 'HTML'))!.bytes.length).toBe(0);
    await sut.get('v2', 'HTML');
    expect(table.reads).toBe(2);
  });

  it('parses the sections of a version once and keeps them with it; none for a version that is not CLEAN', async () => {
    const { table, sut } = setup();
    table.rows.set('v1', { content: '# One\n\n## Two\n', rendered: null, clean: true });
    table.rows.set('v2', { content: '<h2>x</h2>', rendered: null, clean: false });
    const first = await sut.sections('v1', 'MARKDOWN');
    expect(first).toEqual([
      { index: 0, heading: 'One' },
      { index: 1, heading: 'Two' },
    ]);
    expect(await sut.sections('v1', 'MARKDOWN')).toBe(first);
    expect(table.reads).toBe(1);
    expect(await sut.sections('v2', 'HTML')).toBeNull();
  });
});
