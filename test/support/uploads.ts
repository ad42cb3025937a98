import pg from 'pg';
import type { SharedownClient } from '@sharedown/contract';

/** A multipart body with the text fields first and the `file` part last (unless told otherwise). */
export function documentForm(
  name: string,
  content: string | Uint8Array,
  fields: Record<string, string> = {},
  fileFirst = false,
): FormData {
  const form = new FormData();
  const file = new Blob([content as BlobPart]);
  if (fileFirst) form.append('file', file, name);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (!fileFirst) form.append('file', file, name);
  return form;
}

/** `POST /api/v1/files` through the typed client. */
export function uploadFile(
  api: SharedownClient,
  name: string,
  content: string | Uint8Array,
  fields: Record<string, string> = {},
) {
  return api.POST('/api/v1/files', { body: documentForm(name, content, fields) as never });
}

/** Polls the console view of a file until its scan status leaves PENDING (or matches `until`). */
export async function waitForScan(
  consoleClient: SharedownClient,
  fileId: string,
  until: (status: string) => boolean = (status) => status !== 'PENDING',
  timeoutMs = 30_000,
): Promise<{ scanStatus: string; scanResult?: string | null }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await consoleClient.GET('/api/console/files/{id}', { params: { path: { id: fileId } } });
    if (data && until(data.file.scanStatus)) return data.file;
    if (Date.now() > deadline) throw new Error(`scan of ${fileId} still ${data?.file.scanStatus} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs one query on the app's database. */
export async function sql<T = Record<string, unknown>>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
