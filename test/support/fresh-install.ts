import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WORKSPACE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The version scripts/run.mjs installs with on a machine without pnpm.
const PNPM_VERSION = '12.21.0';

function pnpmCommand(): string[] {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? ['pnpm'] : ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}

/** The workspace projects the lockfile knows: `.`, `apps/api`, … */
function importersOf(lockfile: string): string[] {
  const section = /^importers:\n([\s\S]*?)^\S/m.exec(lockfile)?.[1] ?? '';
  return [...section.matchAll(/^ {2}(\S[^:]*):$/gm)].map((match) => match[1]!.replace(/^'|'$/g, ''));
}

export interface InstallResult {
  status: number | null;
  output: string;
}

/**
 * Installs the committed manifests and lockfile into an empty directory, as on a fresh clone,
 * with pnpm checking engines against `nodeVersion`. Offline: every package is already in the
 * store after the workspace's own install, and nothing leaves the machine.
 */
export async function freshInstall(nodeVersion: string): Promise<InstallResult> {
  const target = await mkdtemp(join(tmpdir(), 'sharedown-install-'));
  try {
    const lockfile = await readFile(join(WORKSPACE_ROOT, 'pnpm-lock.yaml'), 'utf8');
    const files = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', ...importersOf(lockfile).map((dir) => join(dir, 'package.json'))];
    for (const file of files) {
      await mkdir(dirname(join(target, file)), { recursive: true });
      await copyFile(join(WORKSPACE_ROOT, file), join(target, file));
    }
    const [bin, ...args] = pnpmCommand();
    const result = spawnSync(
      bin!,
      [...args, 'install', '--frozen-lockfile', '--offline', '--ignore-scripts', `--config.node-version=${nodeVersion}`],
      { cwd: target, encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 300_000 },
    );
    return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
  } finally {
    await rm(target, { recursive: true, force: true });
  }
}

/** The lowest Node.js version the root package.json admits (`engines.node` of the form `>=X.Y[.Z]`). */
export async function declaredNodeFloor(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(WORKSPACE_ROOT, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const match = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(manifest.engines?.node ?? '');
  if (!match) throw new Error(`engines.node of the root package.json is not of the form >=X.Y: ${manifest.engines?.node}`);
  return `${match[1]}.${match[2]}.${match[3] ?? '0'}`;
}
