import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PREFIX, DOOR_PARITY, hasDoors, type Doors } from '../support/doors.js';
import { connect, type Connected } from '../support/mcp-server.js';

const OPENAPI = fileURLToPath(new URL('../../libs/contract/openapi.json', import.meta.url));
const CLI_BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));
const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Operation {
  security?: Record<string, unknown>[];
}

/** `METHOD /path` of every operation of the committed OpenAPI document (the contract check keeps it current). */
async function operations(): Promise<Map<string, Operation>> {
  const document = JSON.parse(await readFile(OPENAPI, 'utf8')) as { paths: Record<string, Record<string, Operation>> };
  const found = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (METHODS.includes(method)) found.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return found;
}

/** Routes the console calls with its session: everything under /api but the token routes and the document. */
function isConsoleRoute(key: string): boolean {
  const path = key.split(' ')[1]!;
  return path.startsWith('/api/') && !path.startsWith('/api/v1/') && !path.startsWith(ADMIN_PREFIX);
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout }));
  });
}

const rows = Object.entries(DOOR_PARITY);
const withDoors = rows.filter((entry): entry is [string, Doors] => hasDoors(entry[1]));
const tools = [
  ...new Set(withDoors.flatMap(([, row]) => (typeof row.mcp === 'string' || Array.isArray(row.mcp) ? [row.mcp].flat() : []))),
];
const commands = [
  ...new Set(withDoors.map(([, row]) => row.cli).filter((command): command is string => typeof command === 'string')),
];

describe('every console operation has its REST route, MCP tool and CLI command', () => {
  let documented: Map<string, Operation>;
  let mcp: Connected;
  let offered: Set<string>;

  beforeAll(async () => {
    documented = await operations();
    // Listing tools never calls the service: any address and token will do.
    mcp = await connect('stdio', { SHAREDOWN_URL: 'http://127.0.0.1:9', SHAREDOWN_TOKEN: 'shd_parity_check' }, 'door-parity');
    offered = new Set((await mcp.client.listTools()).tools.map((tool) => tool.name));
  });
  afterAll(async () => mcp?.close());

  it('lists every console route of the OpenAPI document, and only those', () => {
    const consoleRoutes = [...documented.keys()].filter(isConsoleRoute).sort();
    expect(consoleRoutes.length).toBeGreaterThan(40);
    const missing = consoleRoutes.filter((route) => !(route in DOOR_PARITY));
    expect(missing, 'console routes with neither doors nor a reason in test/support/doors.ts').toEqual([]);
    const stale = rows.map(([route]) => route).filter((route) => !documented.has(route));
    expect(stale, 'rows of routes the service no longer has').toEqual([]);
  });

  it.each(withDoors)('%s has a bearer REST route under /api/v1 and /v1', (_route, row) => {
    const operation = documented.get(row.rest);
    expect(operation, row.rest).toBeDefined();
    expect(operation!.security).toEqual([{ bearer: [] }]);
    // The document lists the /v1 mount relative to its server URL (/v1): `GET /files` is `GET /v1/files`.
    expect(documented.has(row.rest.replace(' /api/v1/', ' /'))).toBe(true);
  });

  it('names only tools the MCP server offers', () => {
    expect(tools.filter((tool) => !offered.has(tool))).toEqual([]);
  });

  it('names every tool the MCP server offers under some console route', () => {
    expect([...offered].filter((tool) => !tools.includes(tool))).toEqual([]);
  });

  it('names only commands the CLI has, each with its own help', async () => {
    for (const command of commands) {
      const words = command.split(' ');
      const { code, stdout } = await runCli([...words, '--help']);
      expect(code, command).toBe(0);
      expect(stdout, command).toContain(`Usage: sharedown ${command}`);
    }
  });

  it('documents every tool in docs/mcp.md and every command in docs/cli.md', async () => {
    const mcpDoc = await readFile(`${DOCS}mcp.md`, 'utf8');
    const cliDoc = await readFile(`${DOCS}cli.md`, 'utf8');
    expect([...offered].filter((tool) => !mcpDoc.includes(tool))).toEqual([]);
    expect(commands.filter((command) => !cliDoc.includes(`sharedown ${command}`))).toEqual([]);
  });
});
