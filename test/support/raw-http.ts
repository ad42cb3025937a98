import { request } from 'node:http';
import { connect } from 'node:net';

/**
 * POSTs raw bytes and resolves with the answer even when the server answers early and
 * closes the connection before the whole body is written (oversize rejections do that).
 */
export function postRaw(
  url: string,
  contentType: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': contentType, 'content-length': body.length, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    req.end(body);
  });
}

/**
 * Sends only the headers of a JSON POST announcing `contentLength` bytes and a first small
 * chunk, then reads the answer: a server that refuses the size must answer without waiting
 * for (or buffering) the body. Avoids the reset races of writing megabytes into a closing socket.
 */
export function announceBody(url: string, contentLength: number): Promise<{ status: number; body: string }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n{"a":"`,
      );
    });
    let raw = '';
    socket.setEncoding('utf8');
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
    socket.on('data', (chunk) => {
      raw += chunk;
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(raw.slice(0, split))?.[1] ?? 0);
      if (Buffer.byteLength(raw.slice(split + 4)) >= length) {
        socket.destroy();
        resolve({ status: Number(raw.split(' ')[1]), body: raw.slice(split + 4) });
      }
    });
    socket.on('error', reject);
  });
}

/**
 * POSTs `body` with `Transfer-Encoding: chunked` and no Content-Length, written in pieces of
 * `chunkBytes`, so the server learns the size only from what it reads. Resolves with the answer
 * even when the server answers early and closes the connection.
 */
export function postChunked(
  url: string,
  contentType: string,
  body: Buffer,
  chunkBytes = 64,
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': contentType, 'transfer-encoding': 'chunked' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    for (let at = 0; at < body.length; at += chunkBytes) req.write(body.subarray(at, at + chunkBytes));
    req.end();
  });
}
