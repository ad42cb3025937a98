import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, normalizeUrl, resolveConfig, writeStoredConfig } from './config.js';
import { UsageError } from './errors.js';

describe(configPath.name, () => {
  it('prefers XDG_CONFIG_HOME', () => {
    expect(configPath({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/sharedown/config.json');
  });

  it('falls back to ~/.config', () => {
    expect(configPath({ HOME: '/h' })).toBe('/h/.config/sharedown/config.json');
    expect(configPath({ XDG_CONFIG_HOME: '', HOME: '/h' })).toBe('/h/.config/sharedown/config.json');
  });
});

describe(resolveConfig.name, () => {
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sharedown-config-'));
    env = { XDG_CONFIG_HOME: dir };
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('reads the stored values', async () => {
    await writeStoredConfig(configPath(env), { url: 'https://a.example', token: 'stored' });
    expect(await resolveConfig(env)).toEqual({
      url: 'https://a.example',
      token: 'stored',
      sources: { url: 'file', token: 'file' },
    });
  });

  it('lets each environment variable override its stored value', async () => {
    await writeStoredConfig(configPath(env), { url: 'https://a.example', token: 'stored' });
    expect(await resolveConfig({ ...env, SHAREDOWN_TOKEN: 'from-env' })).toEqual({
      url: 'https://a.example',
      token: 'from-env',
      sources: { url: 'file', token: 'env' },
    });
    expect((await resolveConfig({ ...env, SHAREDOWN_URL: 'http://b.example/' })).url).toBe('http://b.example');
  });

  it('works from the environment alone', async () => {
    expect(await resolveConfig({ ...env, SHAREDOWN_URL: 'http://b.example', SHAREDOWN_TOKEN: 't' })).toMatchObject({
      url: 'http://b.example',
      token: 't',
    });
  });

  it('is a usage error when nothing is configured', async () => {
    await expect(resolveConfig(env)).rejects.toThrow(UsageError);
    await expect(resolveConfig(env)).rejects.toThrow(/sharedown login/);
  });

  it('is a usage error when the file is not JSON', async () => {
    await writeStoredConfig(configPath(env), {});
    await writeFile(configPath(env), '{nope');
    await expect(resolveConfig(env)).rejects.toThrow(/not valid JSON/);
  });
});

describe(writeStoredConfig.name, () => {
  it('writes 0600 in a 0700 directory, also over a file that was world-readable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sharedown-config-'));
    try {
      const path = join(dir, 'sharedown', 'config.json');
      await writeStoredConfig(path, { url: 'https://a.example', token: 'one' });
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, 'sharedown'))).mode & 0o777).toBe(0o700);
      await writeFile(path, '{}', { mode: 0o644 });
      await writeStoredConfig(path, { url: 'https://a.example', token: 'two' });
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ url: 'https://a.example', token: 'two' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe(normalizeUrl.name, () => {
  it('drops trailing slashes', () => {
    expect(normalizeUrl('https://a.example/')).toBe('https://a.example');
    expect(normalizeUrl('https://a.example/base/')).toBe('https://a.example/base');
  });

  it.each(['a.example', 'ftp://a.example'])('refuses %s', (value) => {
    expect(() => normalizeUrl(value)).toThrow(UsageError);
  });
});
