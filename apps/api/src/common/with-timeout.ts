/** The error of a promise that did not settle in time. */
export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * `work`, or a rejection after `ms` milliseconds: with `onTimeout()` when given, else a
 * TimeoutError. For calls that take no AbortSignal; the work itself is not stopped. The timer
 * neither outlives the work nor keeps the process alive.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => Error = () => new TimeoutError(ms)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
