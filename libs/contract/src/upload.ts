import type { ClientOptions } from 'openapi-fetch';
import type { SharedownClient } from './client.js';
import type { components } from './schema.js';

/** A share's link policies, every field optional: the contract's ShareInput. */
export type ShareInput = Omit<components['schemas']['CreateShareDto'], 'fileId'>;

/** The multipart fields of an upload; the REST route takes `share`, the console's route `conflict`. */
export interface UploadFields {
  file: Blob;
  /** The name to store; by default the File's own name. */
  name?: string;
  folderId?: string | null;
  /** Creates a share of the new file with these policies, in the same transaction. */
  share?: ShareInput;
  /** What the console's upload does when the folder already holds that name. */
  conflict?: 'fail' | 'overwrite' | 'rename';
}

/** The multipart/form-data body of an upload: `file` first, then the text fields that were given. */
export function uploadForm(fields: UploadFields): FormData {
  const form = new FormData();
  if (fields.name !== undefined) form.set('file', fields.file, fields.name);
  else form.set('file', fields.file);
  if (fields.folderId) form.set('folderId', fields.folderId);
  if (fields.share) form.set('share', JSON.stringify(fields.share));
  if (fields.conflict) form.set('conflict', fields.conflict);
  return form;
}

/** Lets a FormData through the typed client untouched, so fetch writes the multipart boundary itself. */
export const formDataBody = { bodySerializer: (body: unknown) => body as FormData } as const;

/**
 * `POST /api/v1/files` as multipart/form-data. `fetch` replaces the transport for this call,
 * e.g. one that reports upload progress. Resolves like every typed call: pass it to `unwrap`.
 */
export function uploadFile(client: SharedownClient, fields: UploadFields, options: { fetch?: ClientOptions['fetch'] } = {}) {
  return client.POST('/api/v1/files', { body: uploadForm(fields) as never, ...formDataBody, ...options });
}
