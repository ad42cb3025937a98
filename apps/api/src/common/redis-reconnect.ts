/**
 * ioredis' wait before each reconnect attempt (its default grows to 2 s). Clients that fail at
 * once while disconnected refuse every request meanwhile, so they try again every second at most.
 */
export function reconnectSoon(attempt: number): number {
  return Math.min(attempt * 100, 1_000);
}
