/**
 * A fetch-compatible transport on XMLHttpRequest, because fetch cannot report upload progress.
 * Handed to the typed client per request, so uploads still go through libs/contract.
 */
export function xhrFetch(onProgress: (loaded: number, total: number) => void, signal?: AbortSignal) {
  return async (request: Request): Promise<Response> => {
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      xhr.withCredentials = true;
      xhr.responseType = 'arraybuffer';
      request.headers.forEach((value, name) => {
        // The browser sets these itself and refuses them from scripts.
        if (name === 'content-length' || name === 'host' || name === 'cookie') return;
        xhr.setRequestHeader(name, value);
      });
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const index = line.indexOf(':');
          if (index > 0) headers.append(line.slice(0, index).trim(), line.slice(index + 1).trim());
        }
        const empty = xhr.status === 204 || xhr.status === 304;
        resolve(
          new Response(empty ? null : (xhr.response as ArrayBuffer), { status: xhr.status, statusText: xhr.statusText, headers }),
        );
      };
      // Rejected as fetch would be, so the client reports them as network failures.
      xhr.onerror = () => reject(new TypeError('Failed to fetch'));
      xhr.ontimeout = () => reject(new DOMException('Network request timed out', 'TimeoutError'));
      xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(body);
    });
  };
}
