import { uploadFile as postUpload, type SharedownClient, type UploadFields } from '@sharedown/contract';

export interface UploadRequest extends Pick<UploadFields, 'file' | 'folderId' | 'share'> {
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

/** `POST /api/v1/files`, counting the bytes sent when asked to. */
export function uploadFile(client: SharedownClient, { onProgress, ...fields }: UploadRequest) {
  return postUpload(client, fields, onProgress ? { fetch: countingFetch(onProgress) } : {});
}
