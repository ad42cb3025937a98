import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { loadHttpConfig, originOf, type HttpConfig } from './config.js';
import { packageInfo } from './package-info.js';
import { createServer } from './server.js';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];
const LOOPBACK_HOSTNAMES = ['127.0.0.1', 'localhost', '[::1]'];
// A 10 MB document grows when JSON-escaped inside a tools/call request.
const MAX_REQUEST_BODY_BYTES = 32 * 1024 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function jsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, headers);
}

/**
 * A server bound to loopback must refuse other Host names, or a web page could reach it
 * through DNS rebinding and act with this process's token.
 */
function hostAllowed(req: IncomingMessage, config: HttpConfig): boolean {
  if (!LOOPBACK_HOSTS.includes(config.host)) return true;
  const header = req.headers.host;
  if (!header) return false;
  try {
    return LOOPBACK_HOSTNAMES.includes(new URL(`http://${header}`).hostname);
  } catch {
    return false;
  }
}

/**
 * The streamable HTTP transport requires servers to check `Origin`: a browser names the page that
 * sends the request, and only the server's own origin (`http://` and the `Host` it was addressed
 * as) and those of MCP_ALLOWED_ORIGINS may act with this process's token. A request without
 * `Origin` comes from a client that is not a browser page and passes.
 */
export function originAllowed(req: Pick<IncomingMessage, 'headers'>, config: Pick<HttpConfig, 'allowedOrigins'>): boolean {
  const header = req.headers.origin;
  if (header === undefined) return true;
  const origin = originOf(header);
  if (!origin) return false;
  if (config.allowedOrigins.includes(origin)) return true;
  return req.headers.host !== undefined && originOf(`http://${req.headers.host}`) === origin;
}

/**
 * Stateless streamable HTTP: each POST gets a fresh server and transport, so no session state
 * lives in the process and any number of clients can share it (all act with the one token).
 */
async function handleMcp(req: IncomingMessage, res: ServerResponse, config: HttpConfig): Promise<void> {
  if (req.method !== 'POST') {
    jsonRpcError(res, 405, 'Method not allowed: this server is stateless, send JSON-RPC requests with POST', {
      Allow: 'POST',
    });
    return;
  }
  const server = createServer(config);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

export function createMcpHttpServer(config: HttpConfig): Server {
  return createHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (!hostAllowed(req, config)) {
      jsonRpcError(res, 403, `Invalid Host header: ${req.headers.host ?? '(none)'}`);
      return;
    }
    if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      sendJson(res, 200, { ok: true, server: packageInfo.name });
      return;
    }
    if (path === '/mcp') {
      if (!originAllowed(req, config)) {
        jsonRpcError(
          res,
          403,
          `Origin not allowed: ${req.headers.origin}; add it to MCP_ALLOWED_ORIGINS to let its pages call /mcp`,
        );
        return;
      }
      handleMcp(req, res, config).catch((error: unknown) => {
        process.stderr.write(`sharedown-mcp: request failed: ${error instanceof Error ? error.stack : String(error)}\n`);
        if (!res.headersSent) jsonRpcError(res, 500, 'Internal server error');
        else res.end();
      });
      return;
    }
    sendJson(res, 404, { error: 'Not found', endpoints: ['POST /mcp', 'GET /healthz'] });
  });
}

/** Listens until SIGINT/SIGTERM; resolves once the listener is closed. */
export async function runHttp(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadHttpConfig(env);
  const server = createMcpHttpServer(config);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shown = config.host.includes(':') ? `[${config.host}]` : config.host;
  process.stderr.write(`sharedown-mcp: serving ${config.url} at http://${shown}:${port}/mcp\n`);
  if (!LOOPBACK_HOSTS.includes(config.host)) {
    process.stderr.write(
      `sharedown-mcp: warning: listening on ${config.host}; anyone who can reach this port acts with the configured token\n`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
