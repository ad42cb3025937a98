import { Injectable } from '@nestjs/common';
import type { FileKind } from '../shares/share-row.js';
import { ContentRenderer, RENDERER_MARK } from './content-renderer.js';
import { ShareViewRepository } from './share-view.repository.js';

const MAX_CACHED_CHARS = 64 * 1024 * 1024;

/**
 * What the viewer serves for a CLEAN version: sanitized HTML for Markdown and text, the author's
 * bytes for HTML. Versions never change once written, so entries never go stale; an in-process
 * LRU bounded by size sits in front of `file_versions.rendered_html`, which spares other replicas
 * and restarts the rendering.
 */
@Injectable()
export class DocumentCache {
  private readonly entries = new Map<string, string>();
  private readonly loading = new Map<string, Promise<string | null>>();
  private size = 0;
  private readonly renderer = new ContentRenderer();

  constructor(private readonly repository: ShareViewRepository) {}

  /** Null when the version is not (or no longer) CLEAN. */
  async get(versionId: string, kind: FileKind): Promise<string | null> {
    const cached = this.entries.get(versionId);
    if (cached !== undefined) {
      this.entries.delete(versionId);
      this.entries.set(versionId, cached);
      return cached;
    }
    let pending = this.loading.get(versionId);
    if (!pending) {
      pending = this.load(versionId, kind).finally(() => this.loading.delete(versionId));
      this.loading.set(versionId, pending);
    }
    return pending;
  }

  private async load(versionId: string, kind: FileKind): Promise<string | null> {
    const row = await this.repository.version(versionId, RENDERER_MARK);
    if (!row) return null;
    let value: string;
    if (kind === 'HTML') {
      value = row.content ?? '';
    } else if (row.rendered !== null) {
      value = row.rendered.slice(RENDERER_MARK.length);
    } else {
      value = this.renderer.render(kind, row.content ?? '');
      await this.repository.storeRendering(versionId, RENDERER_MARK + value);
    }
    this.remember(versionId, value);
    return value;
  }

  private remember(versionId: string, value: string): void {
    if (value.length > MAX_CACHED_CHARS / 4 || this.entries.has(versionId)) return;
    this.entries.set(versionId, value);
    this.size += value.length;
    while (this.size > MAX_CACHED_CHARS) {
      const [oldest, text] = this.entries.entries().next().value as [string, string];
      this.entries.delete(oldest);
      this.size -= text.length;
    }
  }
}
