import { Injectable } from '@nestjs/common';
import type { FileKind } from '../shares/share-row.js';
import { ContentRenderer, RENDERER_MARK } from './content-renderer.js';
import { doctypeLength } from './frame-document.js';
import { ShareViewRepository } from './share-view.repository.js';

const MAX_CACHED_BYTES = 128 * 1024 * 1024;

/**
 * A version ready to send: UTF-8 bytes, so a view copies memory instead of re-encoding a long
 * string on every answer. For HTML, `doctypeLength` is where the frame helper goes.
 */
export interface ServedDocument {
  bytes: Buffer;
  doctypeLength: number;
}

/**
 * What the viewer serves for a CLEAN version: sanitized HTML for Markdown and text, the author's
 * bytes for HTML. Versions never change once written, so entries never go stale; an in-process
 * LRU bounded by size sits in front of `file_versions.rendered_html`, which spares other replicas
 * and restarts the rendering.
 */
@Injectable()
export class DocumentCache {
  private readonly entries = new Map<string, ServedDocument>();
  private readonly loading = new Map<string, Promise<ServedDocument | null>>();
  private size = 0;
  private readonly renderer = new ContentRenderer();

  constructor(private readonly repository: ShareViewRepository) {}

  /** Null when the version is not (or no longer) CLEAN. */
  async get(versionId: string, kind: FileKind): Promise<ServedDocument | null> {
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

  private async load(versionId: string, kind: FileKind): Promise<ServedDocument | null> {
    const row = await this.repository.version(versionId, RENDERER_MARK);
    if (!row) return null;
    let html: string;
    if (kind === 'HTML') {
      html = row.content ?? '';
    } else if (row.rendered !== null) {
      html = row.rendered.slice(RENDERER_MARK.length);
    } else {
      html = this.renderer.render(kind, row.content ?? '');
      await this.repository.storeRendering(versionId, RENDERER_MARK + html);
    }
    const document = { bytes: Buffer.from(html, 'utf8'), doctypeLength: kind === 'HTML' ? doctypeLength(html) : 0 };
    this.remember(versionId, document);
    return document;
  }

  private remember(versionId: string, document: ServedDocument): void {
    if (document.bytes.length > MAX_CACHED_BYTES / 4 || this.entries.has(versionId)) return;
    this.entries.set(versionId, document);
    this.size += document.bytes.length;
    while (this.size > MAX_CACHED_BYTES) {
      const [oldest, evicted] = this.entries.entries().next().value as [string, ServedDocument];
      this.entries.delete(oldest);
      this.size -= evicted.bytes.length;
    }
  }
}
