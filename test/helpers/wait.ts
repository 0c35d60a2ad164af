/**
 * Waiting for a condition by polling with timers (never spinning: servers under test, or child
 * processes, share the machine's cores). A bound on how long to wait, never a timing assertion.
 */

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `check` every `everyMs` until it returns something truthy, and resolves with that; throws,
 * naming `what`, once `ms` have passed.
 */
export async function until<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  ms = 15_000,
  everyMs = 10,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
