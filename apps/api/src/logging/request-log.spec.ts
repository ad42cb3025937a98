import { ConsoleLogger } from '@nestjs/common';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FinishedRequest } from '../http/request-observer.js';
import { JsonLogger } from './json-logger.js';
import { RequestLog } from './request-log.js';
import { STDOUT_BATCH_MS, StdoutBatch } from './stdout-batch.js';

const finished = (id: string): FinishedRequest => ({
  id,
  method: 'GET',
  route: '/s/:segment/:token',
  statusCode: 200,
  seconds: 0.00531,
});

/** A batch whose writes are recorded, one entry per write. */
function recorded(): { batch: StdoutBatch; writes: string[] } {
  const writes: string[] = [];
  return { batch: new StdoutBatch((text) => writes.push(text)), writes };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The batch's wait is over. */
const later = () => vi.advanceTimersByTime(STDOUT_BATCH_MS);

describe(StdoutBatch.name, () => {
  it('writes the lines of its wait together, in order, then waits again; nothing when there is nothing', () => {
    const { batch, writes } = recorded();
    batch.write('a\n');
    vi.advanceTimersByTime(STDOUT_BATCH_MS - 1);
    batch.write('b\n');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['a\nb\n']);
    batch.write('c\n');
    later();
    later();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes at once when 64 KiB wait, or when flushed', () => {
    const { batch, writes } = recorded();
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) batch.write(line);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(64 * 1024);
    batch.write('last\n');
    batch.flush();
    expect(writes[1]).toBe('last\n');
  });
});

describe(RequestLog.name, () => {
  it('readable: one line a request in Nest’s format, with method, route, status, duration and id, written in a batch', () => {
    const { batch, writes } = recorded();
    const sut = new RequestLog(false, 'info', batch);
    sut.write(finished('11111111-1111-4111-8111-111111111111'));
    sut.write(finished('22222222-2222-4222-8222-222222222222'));
    later();
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    // Nest colours its lines unless NO_COLOR is set.
    const plain = lines.map((line) => line.replace(/\u001b\[[0-9;]*m/g, ''));
    expect(plain[0]).toMatch(
      new RegExp(
        `^\\[Nest\\] ${process.pid}  - .+ +LOG \\[HTTP\\] GET /s/:segment/:token 200 5\\.3 ms \\(request 1{8}-1{4}-41{3}-81{3}-1{12}\\)$`,
      ),
    );
  });

  it('readable: the very bytes Nest’s console logger writes for the same line, coloured or under NO_COLOR', () => {
    const message = 'GET /s/:segment/:token 200 5.3 ms (request 44444444-4444-4444-8444-444444444444)';
    // Unset (coloured), then set: each log learns its colours from the environment when it is made.
    for (const noColor of [undefined, '1']) {
      vi.stubEnv('NO_COLOR', noColor);
      const { batch, writes } = recorded();
      new RequestLog(false, 'info', batch).write(finished('44444444-4444-4444-8444-444444444444'));
      batch.flush();
      const nest: string[] = [];
      const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((text) => (nest.push(String(text)), true));
      new ConsoleLogger('HTTP', { logLevels: ['log'] }).log(message);
      stdout.mockRestore();
      // The clock stands still (fake timers): both lines carry the same timestamp.
      expect(writes).toEqual(nest);
      expect(nest[0]!.includes('\u001b[')).toBe(noColor === undefined);
    }
  });

  it('JSON: the members of any other JSON line (as JsonLogger writes them through pino), in its order', () => {
    const { batch, writes } = recorded();
    new RequestLog(true, 'info', batch).write(finished('33333333-3333-4333-8333-333333333333'));
    later();
    const line = JSON.parse(writes.join('')) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'info',
      pid: process.pid,
      context: 'HTTP',
      msg: 'request',
      reqId: '33333333-3333-4333-8333-333333333333',
      method: 'GET',
      route: '/s/:segment/:token',
      status: 200,
      durationMs: 5.3,
    });
    expect(Math.abs(Date.parse(line.time as string) - Date.now())).toBeLessThan(60_000);

    const written: string[] = [];
    new JsonLogger('info', { write: (text: string) => written.push(text) } as never).log(
      { msg: 'request', reqId: line.reqId, method: 'GET', route: '/s/:segment/:token', status: 200, durationMs: 5.3 },
      'HTTP',
    );
    const pinos = JSON.parse(written.join('')) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(Object.keys(pinos));
    expect({ ...line, time: null }).toEqual({ ...pinos, time: null });
  });

  it('JSON: each line has the time it was written, to the millisecond', () => {
    const { batch, writes } = recorded();
    const sut = new RequestLog(true, 'info', batch);
    const times: string[] = [];
    for (const step of [0, 0, 1, 999, 0]) {
      vi.advanceTimersByTime(step);
      times.push(new Date().toISOString());
      sut.write(finished('66666666-6666-4666-8666-666666666666'));
    }
    batch.flush();
    const lines = writes.join('').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { time: string }).time)).toEqual(times);
  });

  it('JSON: a route or method with quotes or backslashes stays one valid line', () => {
    const { batch, writes } = recorded();
    new RequestLog(true, 'info', batch).write({
      ...finished('55555555-5555-4555-8555-555555555555'),
      route: '(unmatched) "\\',
      method: 'M"',
    });
    later();
    expect(writes.join('').split('\n')).toHaveLength(2);
    expect(JSON.parse(writes.join(''))).toMatchObject({ route: '(unmatched) "\\', method: 'M"' });
  });

  it('writes nothing below its level', () => {
    for (const json of [false, true]) {
      for (const level of ['warn', 'silent'] as const) {
        const { batch, writes } = recorded();
        new RequestLog(json, level, batch).write(finished('44444444-4444-4444-8444-444444444444'));
        later();
        expect(writes, `${json ? 'json' : 'text'} at ${level}`).toEqual([]);
      }
    }
  });
});
