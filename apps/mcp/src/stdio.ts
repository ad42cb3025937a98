import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from './config.js';
import { createServer } from './server.js';

/** Serves MCP over stdin/stdout until the client closes stdin; stdout carries only protocol messages. */
export async function runStdio(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(env);
  const server = createServer(config);
  await server.connect(new StdioServerTransport());
  process.stderr.write(`sharedown-mcp: serving ${config.url} over stdio\n`);
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
}
