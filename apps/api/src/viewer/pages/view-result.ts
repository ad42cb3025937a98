import type { CollectionDocument } from '../collections/collection.repository.js';
import type { ServedDocument } from '../documents/document-cache.js';
import type { GateStop } from '../gate/gate-stop.js';
import type { ViewedShare } from '../share-view/share-view.repository.js';
import type { CookieToSet } from '../visitor/viewer-answer.js';

/** What a share view came to; ViewerPresenter turns it into the answer. */
export type ViewResult =
  | { kind: 'not-found' }
  /** A policy stopped the visit (see gate.ts); `cookies` are those it established on the way. */
  | {
      kind: 'stopped';
      share: ViewedShare;
      stop: GateStop;
      cookies: CookieToSet[];
      /** Where the stop's forms post and lead back to, when not the link itself (a collection's document). */
      here?: string;
    }
  /** An admitted visit: the document, and its share_visited event to emit once the page is on its way. */
  | {
      kind: 'shown';
      share: ViewedShare;
      content: ServedDocument;
      watermark: string | null;
      /** The sandboxed frame of an HTML document; null for Markdown and text, which are inline. */
      frameUrl: string | null;
      /** The signed visit id the page's engagement beacons carry; null when the visit is not measured. */
      beacon: string | null;
      cookies: CookieToSet[];
      after?: () => Promise<void>;
      /** A collection's document: the collection page it belongs to. */
      backUrl?: string;
    }
  /** An admitted visit of a collection: its page, listing the documents (each opens at `<linkPath>/d/<fileId>`). */
  | {
      kind: 'collection';
      share: ViewedShare;
      documents: CollectionDocument[];
      linkPath: string;
      cookies: CookieToSet[];
      /** The visit's share_visited event and log row; none when an admitted visit comes back to the list. */
      after?: () => Promise<void>;
    };
