import { mkdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { unwrap, type Schemas } from '@sharedown/contract';
import type { Browser, Page } from 'playwright-core';
import type { RunningApp, TestUser } from './app.js';

export type Share = Schemas['ShareDto'];
export type ShareInput = Omit<Schemas['CreateShareDto'], 'fileId'>;

export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium driven by playwright-core, with the flags these machines need. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A desktop-sized English page in a context of its own, signed in to the console when given a
 * session cookie (`name=value`, as TestUser.cookie); closing the browser closes it.
 */
export async function consolePage(browser: Browser, app: RunningApp, cookie?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  if (cookie) {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: app.baseUrl }]);
  }
  return context.newPage();
}

export interface UploadedDocument {
  fileId: string;
  versionId: string;
  share?: Share;
  url?: string;
}

/** POST /files (multipart) with an optional JSON-encoded share field; raw answer for error cases. */
export async function uploadRaw(
  baseUrl: string,
  user: TestUser,
  name: string,
  content: string,
  share?: ShareInput | string,
): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  if (share !== undefined) form.append('share', typeof share === 'string' ? share : JSON.stringify(share));
  return fetch(`${baseUrl}/api/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: form });
}

/** Uploads a document, waits until its scan settles, and returns its ids (and the share when one was asked for). */
export async function upload(
  app: RunningApp,
  user: TestUser,
  name: string,
  content: string,
  share?: ShareInput,
  settle: 'CLEAN' | 'INFECTED' | 'none' = 'CLEAN',
): Promise<UploadedDocument> {
  const response = await uploadRaw(app.baseUrl, user, name, content, share);
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { file: { id: string }; share?: Share; url?: string };
  if (settle !== 'none') await waitForScan(user, body.file.id, settle);
  const versionId = await sql<{ id: string }>(app, 'SELECT current_version_id AS id FROM files WHERE id = $1', [body.file.id]);
  return { fileId: body.file.id, versionId: versionId[0]!.id, share: body.share, url: body.url };
}

export async function waitForScan(user: TestUser, fileId: string, expected: 'CLEAN' | 'INFECTED'): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const file = await unwrap(user.api.GET('/api/v1/files/{id}', { params: { path: { id: fileId } } }));
    if (file.scanStatus === expected) return;
    if (file.scanStatus !== 'PENDING' && file.scanStatus !== 'SCAN_ERROR') throw new Error(`scan ended ${file.scanStatus}`);
    if (Date.now() > deadline) throw new Error(`scan did not reach ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function share(user: TestUser, fileId: string, input: ShareInput = {}): Promise<{ share: Share; url: string }> {
  return unwrap(user.api.POST('/api/v1/shares', { body: { fileId, ...input } }));
}

export async function getShare(user: TestUser, id: string): Promise<Share> {
  return unwrap(user.api.GET('/api/v1/shares/{id}', { params: { path: { id } } }));
}

/** Runs one statement against the app's own database (moving clocks, inspecting rows). */
export async function sql<T = Record<string, unknown>>(app: RunningApp, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: await app.databaseUrl() });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface Visit {
  status: number;
  body: string;
  headers: Headers;
  location: string | null;
}

/**
 * A visitor with its own cookie jar, like one browser: follows no redirects by itself, keeps
 * every cookie the viewer sets (path ignored: all viewer cookies live under /s/ or /).
 */
export class HttpVisitor {
  readonly cookies = new Map<string, string>();

  /**
   * `connectTo` sends the requests to another address than the URL's host while keeping the URL's
   * Host header: one local process can play two origins (console and render host).
   */
  constructor(
    private readonly baseUrl: string,
    private readonly userAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
    private readonly connectTo?: string,
  ) {}

  /** Adds a cookie header value like `sharedown_session=...`. */
  withCookie(cookie: string): this {
    const [name, ...rest] = cookie.split('=');
    this.cookies.set(name!, rest.join('='));
    return this;
  }

  async get(pathOrUrl: string, headers: Record<string, string> = {}): Promise<Visit> {
    return this.request('GET', pathOrUrl, undefined, headers);
  }

  async head(pathOrUrl: string): Promise<Visit> {
    return this.request('HEAD', pathOrUrl);
  }

  async post(pathOrUrl: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Visit> {
    return this.request('POST', pathOrUrl, new URLSearchParams(form).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(this.baseUrl).origin,
      ...headers,
    });
  }

  /** GET, then follow same-site redirects (as a browser would) up to five times. */
  async open(pathOrUrl: string): Promise<Visit> {
    let visit = await this.get(pathOrUrl);
    for (let hops = 0; hops < 5 && visit.location; hops++) visit = await this.get(visit.location);
    return visit;
  }

  private async request(method: string, pathOrUrl: string, body?: string, headers: Record<string, string> = {}): Promise<Visit> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`;
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const allHeaders = { 'user-agent': this.userAgent, ...(cookie ? { cookie } : {}), ...headers };
    const response = this.connectTo
      ? await rawRequest(this.connectTo, url, method, allHeaders, body)
      : await fetch(url, { method, body, redirect: 'manual', headers: allHeaders });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0\b/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      body: await response.text(),
      headers: response.headers,
      location: response.headers.get('location'),
    };
  }
}

/** An HTTP request to `address` (scheme://host:port) for `url`, with `url`'s host as the Host header. */
function rawRequest(
  address: string,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Response> {
  const target = new URL(url);
  const connect = new URL(address);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: connect.hostname,
        port: connect.port,
        method,
        path: `${target.pathname}${target.search}`,
        headers: { ...headers, host: target.host, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
              responseHeaders.append(name, item);
          }
          const status = res.statusCode ?? 0;
          const payload = method === 'HEAD' || status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(payload, { status, headers: responseHeaders }));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** True when the page is the rendered document rather than a gate page. */
export function isDocument(visit: Visit): boolean {
  return visit.status === 200 && (visit.body.includes('class="sd-doc"') || visit.body.includes('class="sd-frame"'));
}
