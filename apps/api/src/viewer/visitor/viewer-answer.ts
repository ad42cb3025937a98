import type { LocaleTag } from '@sharedown/i18n';

/** A cookie the viewer wants set on its answer (always HttpOnly, SameSite=Lax, path /s/ unless given). */
export interface CookieToSet {
  name: string;
  value: string;
  /** Seconds; omitted = a browser-session cookie. */
  maxAge?: number;
  path?: string;
  /**
   * The same frozen object is handed to many answers (a cookie-less visitor's initial cookie): its
   * Set-Cookie text may be kept with it and written again.
   */
  shared?: true;
}

/**
 * A page as the buffers it was built from, sent one after the other: the document page's own
 * head and tail around the cached document, which goes out as cached instead of copied per view.
 */
export type PageParts = readonly Buffer[];

/** What a viewer route answers, independent of the HTTP framework. */
export interface ViewerAnswer {
  status: number;
  body: string | Buffer | PageParts;
  cookies?: CookieToSet[];
  location?: string;
  headers?: Record<string, string>;
  /** Runs after the answer is sent (webhook events). */
  after?: () => Promise<void>;
}

/** The parts of an incoming request the viewer looks at. */
export interface ViewerRequest {
  /** The language of the pages answering it: the visitor's switch, Accept-Language, DEFAULT_LOCALE. */
  locale: LocaleTag;
  method: string;
  path: string;
  cookies: Record<string, string | undefined>;
  userAgent: string | undefined;
  ip: string;
  referer: string | undefined;
  /** Parsed urlencoded form of a POST; empty otherwise. */
  form: Record<string, string>;
  /** False when a POST carries an Origin header that is not this service's. */
  sameOrigin: boolean;
  /** scheme://host the request was addressed to. */
  origin: string;
  /** The visitor asked not to be tracked (`DNT: 1` or `Sec-GPC: 1`): counted, but not measured. */
  doNotTrack?: boolean;
}
