import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadHttpConfig } from './config.js';

describe(loadConfig.name, () => {
  it('reads the service address and token, without a trailing slash', () => {
    expect(loadConfig({ SHAREDOWN_URL: 'https://share.example.com/', SHAREDOWN_TOKEN: 'shd_a_b' })).toEqual({
      url: 'https://share.example.com',
      token: 'shd_a_b',
    });
  });

  it('names every missing variable at once', () => {
    let error: unknown;
    try {
      loadConfig({});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toHaveLength(2);
    expect((error as ConfigError).message).toMatch(/SHAREDOWN_URL is not set[\s\S]*SHAREDOWN_TOKEN is not set/);
  });

  it('refuses an address that is not http(s)', () => {
    expect(() => loadConfig({ SHAREDOWN_URL: 'share.example.com', SHAREDOWN_TOKEN: 't' })).toThrow(/http\(s\)/);
  });
});

describe(loadHttpConfig.name, () => {
  const base = { SHAREDOWN_URL: 'http://127.0.0.1:8080', SHAREDOWN_TOKEN: 't' };

  it('defaults to 127.0.0.1:3100', () => {
    expect(loadHttpConfig(base)).toMatchObject({ host: '127.0.0.1', port: 3100 });
  });

  it('takes PORT and HOST', () => {
    expect(loadHttpConfig({ ...base, PORT: '9000', HOST: '0.0.0.0' })).toMatchObject({ host: '0.0.0.0', port: 9000 });
  });

  it.each(['abc', '-1', '70000', '80.5'])('refuses PORT=%s', (port) => {
    expect(() => loadHttpConfig({ ...base, PORT: port })).toThrow(/PORT must be an integer/);
  });
});

describe('MCP_ALLOWED_ORIGINS', () => {
  const base = { SHAREDOWN_URL: 'http://127.0.0.1:8080', SHAREDOWN_TOKEN: 't' };

  it('is empty when unset', () => {
    expect(loadHttpConfig(base).allowedOrigins).toEqual([]);
    expect(loadHttpConfig({ ...base, MCP_ALLOWED_ORIGINS: ' ' }).allowedOrigins).toEqual([]);
  });

  it('reads comma-separated origins, each as a browser writes it', () => {
    expect(
      loadHttpConfig({
        ...base,
        MCP_ALLOWED_ORIGINS: 'https://App.Example.com/, http://localhost:5173,https://app.example.com:443,,',
      }).allowedOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it.each(['app.example.com', 'https://app.example.com/path', 'ftp://app.example.com', 'https://u@app.example.com', '*', 'null'])(
    'refuses %s at start, naming the key',
    (entry) => {
      expect(() => loadHttpConfig({ ...base, MCP_ALLOWED_ORIGINS: `https://ok.example.com,${entry}` })).toThrow(
        new RegExp(`MCP_ALLOWED_ORIGINS must list origins .*"${entry.replace(/[.*?/]/g, '\\$&')}"`),
      );
    },
  );

  it('is not read by the stdio configuration', () => {
    expect(loadConfig({ ...base, MCP_ALLOWED_ORIGINS: 'nonsense' })).toEqual({ url: base.SHAREDOWN_URL, token: 't' });
  });
});
