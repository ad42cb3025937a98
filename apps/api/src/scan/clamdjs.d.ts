// clamdjs ships no types; these describe the part of its API the scanner uses.
declare module 'clamdjs' {
  import type { Readable } from 'node:stream';

  interface ClamdScanner {
    scanBuffer(buffer: Buffer, timeout?: number, chunkSize?: number): Promise<string>;
    scanStream(stream: Readable, timeout?: number): Promise<string>;
  }

  const clamdjs: {
    createScanner(host: string, port: number): ClamdScanner;
    ping(host: string, port: number, timeout?: number): Promise<boolean>;
    version(host: string, port: number, timeout?: number): Promise<string>;
    isCleanReply(reply: string): boolean;
  };
  export default clamdjs;
}
