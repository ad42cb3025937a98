import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, createUser, freePort, startApp, type RunningApp, type TestUser } from '../support/app.js';
import { npmEnv } from '../../scripts/npm-env.mjs';
import { WORKSPACE_ROOT } from '../support/fresh-install.js';

const TARBALLS = ['sharedown-cli-1.0.0.tgz', 'sharedown-mcp-1.0.0.tgz', 'sharedown-client-1.0.0.tgz'];
// The Node.js lines the packages promise to run on: the floor, and the first release of each later LTS.
const SUPPORTED_NODE = ['20.19.0', '22.0.0', '24.0.0'];
const STACK_FRAME = /^\s+at .+\(?.+:\d+:\d+\)?$/m;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? npmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The package.json of the npm on PATH, whose own semver checks the engines. Not `npm root -g`:
 * that follows the running node's prefix, which for a node unpacked elsewhere holds no npm.
 */
async function npmManifest(): Promise<string> {
  const onPath = (await run('sh', ['-c', 'command -v npm'], { cwd: tmpdir() })).stdout.trim();
  for (let dir = dirname(await realpath(onPath)); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(await readFile(manifest, 'utf8')) as { name?: string }).name === 'npm')
      return manifest;
  }
  throw new Error(`no npm package above ${onPath}`);
}

/** The engines.node of every package installed under a node_modules, nested ones included. */
async function enginesOf(nodeModules: string): Promise<{ name: string; node: string }[]> {
  const found: { name: string; node: string }[] = [];
  for (const entry of await readdir(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dir = join(nodeModules, entry.name);
    if (entry.name.startsWith('@')) {
      found.push(...(await enginesOf(dir)));
      continue;
    }
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      engines?: { node?: string };
    };
    if (manifest.engines?.node) found.push({ name: manifest.name, node: manifest.engines.node });
    if (existsSync(join(dir, 'node_modules'))) found.push(...(await enginesOf(join(dir, 'node_modules'))));
  }
  return found;
}

describe.skipIf(backend === 'services')('the client packages', () => {
  let app: RunningApp;
  let user: TestUser;
  let out: string;
  let install: string;
  let installed: Run;
  let configHome: string;

  beforeAll(async () => {
    app = await startApp();
    user = await createUser(app.baseUrl);
    out = await mkdtemp(join(tmpdir(), 'sharedown-packages-'));
    install = await mkdtemp(join(tmpdir(), 'sharedown-install-'));
    configHome = await mkdtemp(join(tmpdir(), 'sharedown-config-'));
    const packed = await run(process.execPath, [join(WORKSPACE_ROOT, 'scripts/pack.mjs'), '--out', out], { cwd: WORKSPACE_ROOT });
    if (packed.code !== 0) throw new Error(`npm run pack failed:\n${packed.stdout}${packed.stderr}`);
    // A manifest of its own keeps npm from adopting a parent directory as the project.
    await writeFile(join(install, 'package.json'), '{ "name": "install-check", "private": true, "type": "module" }\n');
    const tarballs = TARBALLS.map((name) => join(out, name));
    installed = await run('npm', ['install', '--no-audit', '--no-fund', ...tarballs], { cwd: install });
  }, 600_000);

  afterAll(async () => {
    await app?.cleanup();
    for (const dir of [out, install, configHome]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** `npx --no -- <bin>`: the installed bin or nothing, never a registry package of that name. */
  const npx = (args: string[], env: Record<string, string> = {}) =>
    run('npx', ['--no', '--', ...args], { cwd: install, env: npmEnv({ XDG_CONFIG_HOME: configHome, ...env }) });
  const service = () => ({ SHAREDOWN_URL: app.baseUrl, SHAREDOWN_TOKEN: user.token });

  it('packs the registry metadata and nothing of the workspace or the server', async () => {
    for (const tarball of TARBALLS) {
      const listing = await run('tar', ['tzf', join(out, tarball)], { cwd: out });
      expect(listing.code, listing.stderr).toBe(0);
      const files = listing.stdout.trim().split('\n');
      expect(files).toContain('package/package.json');
      expect(files).toContain('package/README.md');
      expect(files).toContain('package/LICENSE');
      const stray = files.filter(
        (file) =>
          !/^package\/(package\.json|README\.md|LICENSE|openapi\.json|dist\/.+\.(js|d\.ts))$/.test(file) &&
          !/^package\/node_modules\/@sharedown\/(contract|i18n)\/(package\.json|LICENSE|openapi\.json|dist\/.+\.(js|d\.ts))$/.test(
            file,
          ),
      );
      expect(stray, tarball).toEqual([]);
      expect(files.filter((file) => /apps\/api|nestjs|\.map$|\.spec\.|\.ts$(?<!\.d\.ts)/.test(file))).toEqual([]);

      const manifest = JSON.parse(
        (await run('tar', ['xzOf', join(out, tarball), 'package/package.json'], { cwd: out })).stdout,
      ) as Record<string, unknown>;
      expect(manifest).toMatchObject({ version: '1.0.0', license: 'Apache-2.0', engines: { node: '>=20.19' } });
      for (const field of ['name', 'description', 'keywords', 'exports', 'files', 'dependencies'])
        expect(manifest[field]).toBeDefined();
      expect(manifest.private).toBeUndefined();
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
    }
  });

  it('installs with plain npm from the tarballs and the registry, on every supported Node.js line', async () => {
    expect(installed.code, `${installed.stdout}${installed.stderr}`).toBe(0);
    expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/EBADENGINE|unsupported engine/i);
    const semver = createRequire(await npmManifest())('semver') as { satisfies(version: string, range: string): boolean };
    const engines = await enginesOf(join(install, 'node_modules'));
    expect(engines.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['@sharedown/cli', '@sharedown/mcp', '@sharedown/client']),
    );
    const refused = engines.flatMap(({ name, node }) =>
      SUPPORTED_NODE.filter((version) => !semver.satisfies(version, node)).map(
        (version) => `${name} (${node}) refuses ${version}`,
      ),
    );
    expect(refused).toEqual([]);
  });

  it('npx sharedown --version and whoami against the service', async () => {
    const version = await npx(['sharedown', '--version']);
    expect(version).toMatchObject({ code: 0, stdout: '1.0.0\n' });

    const whoami = await npx(['sharedown', 'whoami', '--json'], service());
    expect(whoami.code, whoami.stderr).toBe(0);
    expect((JSON.parse(whoami.stdout) as { user: { email: string } }).user.email).toBe(user.email);
  });

  it('npx sharedown-mcp answers initialize over stdio and calls the service', async () => {
    const client = new Client({ name: 'packages-e2e', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['--no', '--', 'sharedown-mcp'],
        cwd: install,
        env: service(),
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getServerVersion()).toMatchObject({ name: '@sharedown/mcp', version: '1.0.0' });
      const listed = (await client.callTool({ name: 'service_list', arguments: {} })) as CallToolResult;
      expect(listed.isError ?? false, JSON.stringify(listed.content)).toBe(false);
      expect(listed.structuredContent).toEqual({ files: [] });
    } finally {
      await client.close();
    }
  });

  it('@sharedown/client imports with its types in TypeScript and calls the service', async () => {
    await writeFile(
      join(install, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2023', 'dom'],
          types: [],
          strict: true,
          noEmit: true,
          resolveJsonModule: true,
        },
        files: ['check.ts'],
      }),
    );
    await writeFile(
      join(install, 'check.ts'),
      [
        "import { createSharedownClient, SharedownApiError, unwrap, type Schemas } from '@sharedown/client';",
        "import openapi from '@sharedown/client/openapi.json' with { type: 'json' };",
        '',
        "const api = createSharedownClient({ baseUrl: 'http://127.0.0.1:8080', token: 'shd_x' });",
        "const me: Schemas['MeDto'] = await unwrap(api.GET('/api/v1/me'));",
        'const email: string = me.user.email;',
        '// @ts-expect-error: a path the document does not have',
        "void api.GET('/api/v1/no-such-route');",
        'const version: string = openapi.openapi;',
        'export const checked = [email, version, SharedownApiError.name];',
        '',
      ].join('\n'),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const typed = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: install });
    expect(typed.code, `${typed.stdout}${typed.stderr}`).toBe(0);

    await writeFile(
      join(install, 'check.mjs'),
      [
        "import { createSharedownClient, SharedownApiError, unwrap } from '@sharedown/client';",
        "import openapi from '@sharedown/client/openapi.json' with { type: 'json' };",
        'const api = createSharedownClient({ baseUrl: process.env.SHAREDOWN_URL, token: process.env.SHAREDOWN_TOKEN });',
        "const me = await unwrap(api.GET('/api/v1/me'));",
        "const missing = await unwrap(api.GET('/api/v1/no-such-route')).catch((error) => error);",
        'console.log(JSON.stringify({ email: me.user.email, openapi: openapi.openapi, missingRoute: missing instanceof SharedownApiError ? missing.missingRoute : String(missing) }));',
        '',
      ].join('\n'),
    );
    const ran = await run(process.execPath, ['check.mjs'], { cwd: install, env: npmEnv(service()) });
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ email: user.email, openapi: '3.1.0', missingRoute: 'GET /api/v1/no-such-route' });
  });

  it('names SHAREDOWN_URL instead of printing a stack trace when the service is not configured or not there', async () => {
    const unset = await npx(['sharedown', 'whoami'], { SHAREDOWN_URL: '', SHAREDOWN_TOKEN: '' });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('SHAREDOWN_URL');
    expect(unset.stderr).not.toMatch(STACK_FRAME);

    const nobody = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await npx(['sharedown', 'whoami'], { SHAREDOWN_URL: nobody, SHAREDOWN_TOKEN: user.token });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain(`cannot reach ${nobody} (SHAREDOWN_URL)`);
    expect(unreachable.stderr).not.toMatch(STACK_FRAME);

    const mcpUnset = await npx(['sharedown-mcp'], { SHAREDOWN_URL: '', SHAREDOWN_TOKEN: '' });
    expect(mcpUnset.code).toBe(1);
    expect(mcpUnset.stderr).toContain('SHAREDOWN_URL is not set');
    expect(mcpUnset.stderr).not.toMatch(STACK_FRAME);

    const client = new Client({ name: 'packages-e2e', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['--no', '--', 'sharedown-mcp'],
        cwd: install,
        env: { SHAREDOWN_URL: nobody, SHAREDOWN_TOKEN: user.token },
        stderr: 'pipe',
      }),
    );
    try {
      const down = (await client.callTool({ name: 'service_list', arguments: {} })) as CallToolResult;
      expect(down.isError).toBe(true);
      const [text] = down.content as { type: 'text'; text: string }[];
      expect(JSON.parse(text!.text)).toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringContaining(`${nobody} (SHAREDOWN_URL)`),
      });
    } finally {
      await client.close();
    }
  });
});
