/** Settings of one tool-server process: one service, one API token (single-tenant). */
export interface McpConfig {
  /** Service root, e.g. `https://share.example.com` (no `/api` suffix). */
  url: string;
  token: string;
}

export interface HttpConfig extends McpConfig {
  port: number;
  host: string;
  /**
   * Browser origins (`scheme://host[:port]`) allowed to call `/mcp` besides the server's own;
   * a request with any other `Origin` is refused (MCP_ALLOWED_ORIGINS).
   */
  allowedOrigins: string[];
}

export const DEFAULT_HTTP_PORT = 3100;
export const DEFAULT_HTTP_HOST = '127.0.0.1';

/** A configuration problem, worded for the person starting the server. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function readServiceSettings(env: Env, problems: string[]): McpConfig {
  const url = env.SHAREDOWN_URL?.trim() ?? '';
  const token = env.SHAREDOWN_TOKEN?.trim() ?? '';
  if (!url) {
    problems.push('SHAREDOWN_URL is not set: give the address of the Sharedown service, e.g. https://share.example.com');
  } else if (!isHttpUrl(url)) {
    problems.push(`SHAREDOWN_URL must be an http(s) address, got "${url}"`);
  }
  if (!token) {
    problems.push('SHAREDOWN_TOKEN is not set: create an API token in the Sharedown console');
  }
  return { url: url.replace(/\/+$/, ''), token };
}

function isHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

export function loadConfig(env: Env): McpConfig {
  const problems: string[] = [];
  const config = readServiceSettings(env, problems);
  if (problems.length) throw new ConfigError(problems);
  return config;
}

export function loadHttpConfig(env: Env): HttpConfig {
  const problems: string[] = [];
  const config = readServiceSettings(env, problems);
  const rawPort = env.PORT?.trim() || String(DEFAULT_HTTP_PORT);
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port < 0 || port > 65535) {
    problems.push(`PORT must be an integer between 0 and 65535, got "${rawPort}"`);
  }
  const host = env.HOST?.trim() || DEFAULT_HTTP_HOST;
  const allowedOrigins = readAllowedOrigins(env.MCP_ALLOWED_ORIGINS, problems);
  if (problems.length) throw new ConfigError(problems);
  return { ...config, port, host, allowedOrigins };
}

/** `https://app.example.com, http://localhost:5173` → each entry's origin (lower-case host, default port dropped). */
function readAllowedOrigins(raw: string | undefined, problems: string[]): string[] {
  const origins: string[] = [];
  for (const entry of (raw ?? '').split(',').map((part) => part.trim())) {
    if (!entry) continue;
    const origin = originOf(entry);
    if (origin) origins.push(origin);
    else {
      problems.push(`MCP_ALLOWED_ORIGINS must list origins (scheme://host[:port], comma-separated, no path), got "${entry}"`);
    }
  }
  return [...new Set(origins)];
}

/** The origin an entry names, or undefined when it is not exactly an http(s) origin (a trailing `/` is allowed). */
export function originOf(value: string): string | undefined {
  if (!/^https?:\/\/[^/?#@]+\/?$/i.test(value)) return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}
