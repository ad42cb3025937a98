import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, loadEnv } from './env.js';

describe('DEFAULT_LOCALE', () => {
  it('defaults to Chinese and takes any language the viewer speaks', () => {
    expect(loadEnv({}).DEFAULT_LOCALE).toBe('zh-CN');
    expect(loadEnv({ DEFAULT_LOCALE: 'de' }).DEFAULT_LOCALE).toBe('de');
  });

  it('stops the start on a language the viewer does not speak, naming the key', () => {
    expect(() => loadEnv({ DEFAULT_LOCALE: 'pt-BR' })).toThrow(InvalidEnvironmentError);
    expect(() => loadEnv({ DEFAULT_LOCALE: 'pt-BR' })).toThrow(/DEFAULT_LOCALE/);
  });
});

describe('ADMIN_EMAILS', () => {
  it('is a case-insensitive list of addresses, empty by default', () => {
    expect(loadEnv({}).ADMIN_EMAILS).toEqual([]);
    expect(loadEnv({ ADMIN_EMAILS: ' Ops@Example.com, root@example.org ,ops@example.com' }).ADMIN_EMAILS).toEqual([
      'ops@example.com',
      'root@example.org',
    ]);
  });

  it('stops the start on something that is no address, naming the key', () => {
    expect(() => loadEnv({ ADMIN_EMAILS: 'ops@example.com,not-an-address' })).toThrow(/ADMIN_EMAILS.*not-an-address/);
  });
});
