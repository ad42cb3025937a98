import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './errors.js';

export interface StoredConfig {
  url?: string;
  token?: string;
}

export interface ResolvedConfig {
  url: string;
  token: string;
  /** Where each value came from, for `whoami` and error messages. */
  sources: { url: 'env' | 'file'; token: 'env' | 'file' };
}

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/sharedown/config.json`, else `~/.config/sharedown/config.json`. */
export function configPath(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'sharedown', 'config.json');
}

export async function readStoredConfig(path: string): Promise<StoredConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object') throw new Error('not an object');
    const { url, token } = parsed as Record<string, unknown>;
    return { url: typeof url === 'string' ? url : undefined, token: typeof token === 'string' ? token : undefined };
  } catch {
    throw new UsageError(`${path} is not valid JSON; run "sharedown login" again or delete it`);
  }
}

/** The token is a credential: the file is written owner-only (0600) in an owner-only directory, then renamed into place. */
export async function writeStoredConfig(path: string, config: StoredConfig): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}

export async function deleteStoredConfig(path: string): Promise<boolean> {
  try {
    await rm(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export function normalizeUrl(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value.trim());
  } catch {
    throw new UsageError(`"${value}" is not a valid URL; use the service address, e.g. https://share.example.com`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`"${value}" must be an http(s) address`);
  }
  return parsed.toString().replace(/\/+$/, '');
}

/** Environment variables override the stored values one by one. */
export async function resolveConfig(env: Env = process.env): Promise<ResolvedConfig> {
  const path = configPath(env);
  const stored = await readStoredConfig(path);
  const envUrl = env.SHAREDOWN_URL?.trim();
  const envToken = env.SHAREDOWN_TOKEN?.trim();
  const url = envUrl || stored.url;
  const token = envToken || stored.token;
  if (!url || !token) {
    const missing = [!url && 'service URL', !token && 'API token'].filter(Boolean).join(' and ');
    throw new UsageError(
      `no ${missing} configured: run "sharedown login" or set SHAREDOWN_URL and SHAREDOWN_TOKEN (config file: ${path})`,
    );
  }
  return { url: normalizeUrl(url), token, sources: { url: envUrl ? 'env' : 'file', token: envToken ? 'env' : 'file' } };
}
