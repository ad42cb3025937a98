import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpConfig } from './config.js';
import { createMcpHttpServer, originAllowed } from './http.js';

describe(originAllowed.name, () => {
  const config = { allowedOrigins: ['https://app.example.com', 'http://localhost:5173'] };
  const from = (headers: Record<string, string>) => originAllowed({ headers }, config);

  it('lets a request without Origin pass (a client that is not a browser page)', () => {
    expect(from({ host: '127.0.0.1:3100' })).toBe(true);
    expect(from({})).toBe(true);
  });

  it("allows the server's own origin: http:// and the Host it was addressed as", () => {
    expect(from({ host: '127.0.0.1:3100', origin: 'http://127.0.0.1:3100' })).toBe(true);
    expect(from({ host: 'LocalHost:3100', origin: 'http://localhost:3100' })).toBe(true);
    expect(from({ host: '[::1]:3100', origin: 'http://[::1]:3100' })).toBe(true);
    expect(from({ host: 'mcp.internal', origin: 'http://mcp.internal:80' })).toBe(true);
  });

  it('allows the origins of MCP_ALLOWED_ORIGINS', () => {
    expect(from({ host: '127.0.0.1:3100', origin: 'https://app.example.com' })).toBe(true);
    expect(from({ host: '127.0.0.1:3100', origin: 'http://localhost:5173' })).toBe(true);
  });

  it.each([
    ['another site', 'https://attacker.example'],
    ['another port of the same host', 'http://127.0.0.1:8080'],
    ['another scheme', 'https://127.0.0.1:3100'],
    ['an allowed host on another port', 'https://app.example.com:8443'],
    ['an opaque origin', 'null'],
    ['garbage', 'not an origin'],
    ['an empty header', ''],
  ])('refuses %s', (_what, origin) => {
    expect(from({ host: '127.0.0.1:3100', origin })).toBe(false);
  });

  it('refuses an Origin when there is no Host to compare it with', () => {
    expect(from({ origin: 'http://127.0.0.1:3100' })).toBe(false);
  });
});

describe('the /mcp endpoint', () => {
  const config: HttpConfig = {
    url: 'http://127.0.0.1:9',
    token: 'shd_unit_test',
    host: '127.0.0.1',
    port: 0,
    allowedOrigins: ['https://app.example.com'],
  };
  const server = createMcpHttpServer(config);
  let port: number;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** tools/list, which never calls the service. */
  function listTools(headers: Record<string, string>): Promise<{ status: number; type?: string; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
  }

  it('answers a foreign Origin 403 with a JSON-RPC error naming it, before any MCP handling', async () => {
    const answer = await listTools({ origin: 'https://attacker.example' });
    expect(answer.status).toBe(403);
    expect(answer.type).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('https://attacker.example') },
      id: null,
    });
  });

  it.each([
    ['without Origin', {}],
    ['from its own origin', { origin: `http://127.0.0.1:PORT` }],
    ['from an allowed origin', { origin: 'https://app.example.com' }],
  ])('serves a request %s', async (_what, headers: Record<string, string>) => {
    const answer = await listTools(
      Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace('PORT', String(port))])),
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).result.tools.length).toBeGreaterThan(6);
  });
});
