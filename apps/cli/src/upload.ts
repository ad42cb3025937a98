import type { SharedownClient } from '@sharedown/contract';
import type { ShareInput } from './share-options.js';

export interface UploadRequest {
  file: File;
  folderId?: string;
  /** JSON-encoded ShareInput; when present the service creates a share with the file. */
  share?: ShareInput;
  /** Called with the bytes of the multipart body sent so far. */
  onProgress?: (sentBytes: number) => void;
}

/** Counts the multipart body as fetch pulls it, which is as fast as the socket takes it. */
function countingFetch(onProgress: (sentBytes: number) => void): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.body) return fetch(request);
    let sent = 0;
    const counted = request.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          sent += chunk.byteLength;
          onProgress(sent);
          controller.enqueue(chunk);
        },
      }),
    );
    return fetch(new Request(request, { body: counted, duplex: 'half' } as RequestInit));
  };
}

/** `POST /api/v1/files` as multipart/form-data: the typed client passes the FormData through untouched. */
export function uploadFile(client: SharedownClient, request: UploadRequest) {
  const form = new FormData();
  form.set('file', request.file);
  if (request.folderId) form.set('folderId', request.folderId);
  if (request.share) form.set('share', JSON.stringify(request.share));
  return client.POST('/api/v1/files', {
    body: form as never,
    bodySerializer: (body: unknown) => body as FormData,
    ...(request.onProgress ? { fetch: countingFetch(request.onProgress) } : {}),
  });
}
