import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { PageAssets } from './viewer-pages.js';
import { VIEWER_SCRIPT } from '../frames/viewer-client.js';
import { viewerStyles } from './viewer-styles.js';

export interface Asset {
  body: string;
  contentType: string;
}

/** The viewer's stylesheet and script under content-hashed names, so they can be cached forever. */
@Injectable()
export class ViewerAssets {
  readonly urls: PageAssets;
  private readonly byName = new Map<string, Asset>();

  constructor() {
    const css = viewerStyles();
    const cssName = `viewer.${hash(css)}.css`;
    const jsName = `viewer.${hash(VIEWER_SCRIPT)}.js`;
    this.byName.set(cssName, { body: css, contentType: 'text/css; charset=utf-8' });
    this.byName.set(jsName, { body: VIEWER_SCRIPT, contentType: 'text/javascript; charset=utf-8' });
    this.urls = { css: `/s/_assets/${cssName}`, js: `/s/_assets/${jsName}` };
  }

  get(name: string): Asset | undefined {
    return this.byName.get(name);
  }
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 12);
}
