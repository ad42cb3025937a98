import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JsonLogger } from './json-logger.js';
import { logsAsJson } from './log-format.js';

function capture(): { lines: () => Record<string, unknown>[]; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe(JsonLogger.name, () => {
  it('writes one JSON object per line with the level, the context and the message', () => {
    const out = capture();
    const sut = new JsonLogger('info', out.stream as never);
    sut.log('started', 'Sharedown');
    sut.error('failed', 'Error: x\n    at y', 'Errors');
    sut.debug('not at info');
    expect(out.lines()).toMatchObject([
      { level: 'info', context: 'Sharedown', msg: 'started' },
      { level: 'error', context: 'Errors', msg: 'failed', stack: 'Error: x\n    at y' },
    ]);
  });

  it('keeps the members of a logged object and hides secret ones at any depth', () => {
    const out = capture();
    const sut = new JsonLogger('info', out.stream as never);
    sut.log(
      {
        msg: 'request',
        route: '/s/:segment/:token',
        password: 'hunter2',
        headers: { authorization: 'Bearer shd_x', cookie: 'a=b' },
      },
      'HTTP',
    );
    const [line] = out.lines();
    expect(line).toMatchObject({ msg: 'request', route: '/s/:segment/:token', password: '[redacted]', context: 'HTTP' });
    expect(JSON.stringify(line)).not.toMatch(/hunter2|shd_x|a=b/);
  });
});

describe('logsAsJson', () => {
  it('follows LOG_FORMAT, else production', () => {
    expect(logsAsJson({ LOG_FORMAT: undefined, NODE_ENV: 'production' })).toBe(true);
    expect(logsAsJson({ LOG_FORMAT: undefined, NODE_ENV: undefined })).toBe(false);
    expect(logsAsJson({ LOG_FORMAT: 'text', NODE_ENV: 'production' })).toBe(false);
    expect(logsAsJson({ LOG_FORMAT: 'json', NODE_ENV: 'development' })).toBe(true);
  });
});
