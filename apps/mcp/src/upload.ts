import { unwrap, type SharedownClient } from '@sharedown/contract';
import type { ShareInput } from './schemas.js';

export interface UploadRequest {
  file: File;
  folderId?: string;
  share?: ShareInput;
}

/** `POST /api/v1/files` as multipart/form-data: the typed client passes the FormData through untouched. */
export function uploadFile(client: SharedownClient, request: UploadRequest) {
  const form = new FormData();
  form.set('file', request.file);
  if (request.folderId) form.set('folderId', request.folderId);
  if (request.share) form.set('share', JSON.stringify(request.share));
  return unwrap(
    client.POST('/api/v1/files', {
      body: form as never,
      bodySerializer: (body: unknown) => body as FormData,
    }),
  );
}
