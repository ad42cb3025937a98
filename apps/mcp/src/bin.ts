#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } from './config.js';
import { runHttp } from './http.js';
import { packageInfo } from './package-info.js';
import { runStdio } from './stdio.js';

const USAGE = `Usage: sharedown-mcp [--http]

Sharedown MCP tool server: tools to upload, read, organize, share and track
documents (service_*), and each document as the resource sharedown://files/{id}.

Options:
  --http       serve streamable HTTP at /mcp (and GET /healthz) instead of stdio
  -v, --version
  -h, --help

Environment:
  SHAREDOWN_URL    address of the Sharedown service (required)
  SHAREDOWN_TOKEN  API token shd_… created in the console (required)
  PORT             HTTP port (default ${DEFAULT_HTTP_PORT}; --http only)
  HOST             HTTP listen address (default ${DEFAULT_HTTP_HOST}; --http only)
  MCP_ALLOWED_ORIGINS
                   browser origins allowed to call /mcp besides the server's own,
                   comma-separated scheme://host[:port] (--http only)
`;

async function main(argv: string[]): Promise<number> {
  let values: { http?: boolean; help?: boolean; version?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        http: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`sharedown-mcp: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${packageInfo.version}\n`);
    return 0;
  }
  try {
    await (values.http ? runHttp() : runStdio());
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`sharedown-mcp: ${error.message}\n`);
      return 1;
    }
    // The listener's own failures (the port taken, an address not on this machine) need words, not a stack.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL' || code === 'EACCES') {
      const { port, address } = error as NodeJS.ErrnoException & { port?: number; address?: string };
      const where = `${address ?? process.env.HOST ?? DEFAULT_HTTP_HOST}:${port ?? process.env.PORT ?? DEFAULT_HTTP_PORT}`;
      const why =
        code === 'EADDRINUSE'
          ? 'is in use'
          : code === 'EACCES'
            ? 'may not be used by this user'
            : 'is not an address of this machine';
      process.stderr.write(`sharedown-mcp: cannot listen on ${where}: it ${why}; choose another with PORT or HOST\n`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
