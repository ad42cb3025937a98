import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort } from './app.js';

/** The built MCP tool server, run as its own process as an MCP client would run it. */
export const MCP_BIN = fileURLToPath(new URL('../../apps/mcp/dist/bin.js', import.meta.url));

export type Transport = 'stdio' | 'http';

export interface HttpServer {
  url: string;
  process: ChildProcess;
  logs: () => string;
  stop(): Promise<void>;
}

export function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
}

/** `sharedown-mcp --http` on a free port, once its /healthz answers. */
export async function startHttpServer(env: Record<string, string>): Promise<HttpServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [MCP_BIN, '--http'], {
    env: { ...baseEnv(), PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sharedown-mcp --http exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`sharedown-mcp --http did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process: child,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

/** An official MCP client connected to a tool server process over stdio or streamable HTTP. */
export async function connect(
  transport: Transport,
  env: Record<string, string>,
  clientName = 'sharedown-e2e',
): Promise<Connected> {
  const client = new Client({ name: clientName, version: '1.0.0' });
  if (transport === 'stdio') {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [MCP_BIN], env: { ...baseEnv(), ...env }, stderr: 'pipe' }),
    );
    return { client, close: () => client.close() };
  }
  const server = await startHttpServer(env);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  return {
    client,
    async close() {
      await client.close();
      await server.stop();
    },
  };
}
