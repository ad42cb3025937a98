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
