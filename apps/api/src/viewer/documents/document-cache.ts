import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { FileKind } from '../../shares/share-row.js';
import { ContentRenderer, RENDERER_MARK } from './content-renderer.js';
import { documentSections, type DocumentSection } from './document-sections.js';
import { doctypeLength } from '../frames/frame-document.js';
import { ShareViewRepository } from '../share-view/share-view.repository.js';

const MAX_CACHED_BYTES = 128 * 1024 * 1024;

/**
 * A version ready to send: UTF-8 bytes, so a view copies memory instead of re-encoding a long
 * string on every answer. For HTML, `doctypeLength` is where the frame helper goes.
 */
export interface ServedDocument {
  bytes: Buffer;
  doctypeLength: number;
  /** Its sections, parsed on first use (a beacon or the analytics), then kept with the entry. */
  sections?: DocumentSection[];
}

/**
 * What the viewer serves for a CLEAN version: sanitized HTML for Markdown and text, the author's
 * bytes for HTML. Versions never change once written, so entries never go stale; an in-process
 * LRU bounded by size sits in front of `file_versions.rendered_html`, which spares other replicas
 * and restarts the rendering.
 */
@Injectable()
export class DocumentCache {
  private readonly renderer = new ContentRenderer();
  // fetch() shares one load among concurrent misses of a version, and keeps nothing for a
  // version that is not CLEAN (undefined) or failed to load.
  private readonly entries = new LRUCache<string, ServedDocument, FileKind>({
    maxSize: MAX_CACHED_BYTES,
    maxEntrySize: MAX_CACHED_BYTES / 4,
    sizeCalculation: (document) => Math.max(1, document.bytes.length),
    fetchMethod: async (versionId, _stale, { context }) => (await this.load(versionId, context)) ?? undefined,
  });

  constructor(private readonly repository: ShareViewRepository) {}

  /** Null when the version is not (or no longer) CLEAN. */
  async get(versionId: string, kind: FileKind): Promise<ServedDocument | null> {
    return this.entries.get(versionId) ?? (await this.entries.fetch(versionId, { context: kind })) ?? null;
  }

  /**
   * The sections of a CLEAN version (document-sections.ts), null when it is not CLEAN. Parsed once
   * per cached version: a beacon costs a lookup, not a parse.
   */
  async sections(versionId: string, kind: FileKind): Promise<DocumentSection[] | null> {
    const document = await this.get(versionId, kind);
    if (document === null) return null;
    document.sections ??= documentSections(kind, document.bytes.toString('utf8'));
    return document.sections;
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
      // Kept for other replicas and restarts only: a visit already admitted is shown even when the
      // database went away since the read.
      await this.repository.storeRendering(versionId, RENDERER_MARK + html).catch(() => undefined);
    }
    return { bytes: Buffer.from(html, 'utf8'), doctypeLength: kind === 'HTML' ? doctypeLength(html) : 0 };
  }
}
