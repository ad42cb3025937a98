/**
 * How long a change another process makes (another replica, or a statement of the test's own)
 * may take to be followed: the contract's one second.
 */
export const OTHER_PROCESS_MS = 1_000;

/**
 * Asks `check` until it holds; fails when it still does not hold once `withinMs` have passed
 * since the change was answered. For a change another process makes (another replica, or a
 * statement of its own written to the database), which the api's caches follow through the
 * change feed: the bound is the rule under test, not a performance figure.
 */
export async function followsWithin(withinMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`the change was not followed within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
