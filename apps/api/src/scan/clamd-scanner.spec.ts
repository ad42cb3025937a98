import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClamdScanner, parseClamdReply } from './clamd-scanner.js';
import { ScanUnavailableError } from './scanner.js';

describe(parseClamdReply.name, () => {
  it('reads clean and infected answers', () => {
    expect(parseClamdReply('stream: OK\0')).toEqual({ infected: false });
    expect(parseClamdReply('stream: Eicar-Test-Signature.UNOFFICIAL FOUND\0')).toEqual({
      infected: true,
      signature: 'Eicar-Test-Signature.UNOFFICIAL',
    });
  });

  it('treats error lines and empty answers as an unavailable scanner', () => {
    expect(() => parseClamdReply('INSTREAM size limit exceeded. ERROR\0')).toThrow(ScanUnavailableError);
    expect(() => parseClamdReply('')).toThrow(ScanUnavailableError);
  });
});

describe(ClamdScanner.name, () => {
  let server: Server | undefined;
  const sockets = new Set<Socket>();

  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  async function listen(onConnection: (socket: Socket) => void): Promise<number> {
    // Half-open like clamd: the client ends its side after the stream and waits for the verdict.
    server = createServer({ allowHalfOpen: true }, (socket) => {
      sockets.add(socket);
      onConnection(socket);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server!.address() as { port: number }).port;
  }

  it('speaks INSTREAM and reads the verdict', async () => {
    let received = Buffer.alloc(0);
    const port = await listen((socket) => {
      socket.on('data', (chunk) => {
        received = Buffer.concat([received, chunk]);
        // zINSTREAM\0, one chunk with its length, then the zero-length terminator.
        if (received.subarray(-4).readUInt32BE(0) === 0 && received.length > 14) socket.end('stream: Test.Sig FOUND\0');
      });
    });
    const sut = new ClamdScanner('127.0.0.1', port, 2000);
    await expect(sut.scan(Buffer.from('payload'))).resolves.toEqual({ infected: true, signature: 'Test.Sig' });
    expect(received.subarray(0, 10).toString()).toBe('zINSTREAM\0');
    expect(received.subarray(14, 21).toString()).toBe('payload');
  });

  it('fails with ScanUnavailableError when nothing listens', async () => {
    const port = await listen(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(new ClamdScanner('127.0.0.1', port, 1000).scan(Buffer.from('x'))).rejects.toBeInstanceOf(ScanUnavailableError);
  });

  it('fails with ScanUnavailableError when clamd never answers', async () => {
    const port = await listen((socket) => socket.on('data', () => undefined));
    const started = Date.now();
    await expect(new ClamdScanner('127.0.0.1', port, 300).scan(Buffer.from('x'))).rejects.toThrow(/no answer|Timeout/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
