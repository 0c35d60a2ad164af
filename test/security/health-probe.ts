/**
 * Measures GET /healthz while a hostile request is in flight. The server runs in this process, so
 * a stalled event loop delays the probe's own timers as well and shows up in the latency.
 */
export async function whileProbingHealth<T>(
  url: string,
  attack: () => Promise<T>,
  opts: { minProbes?: number } = {},
): Promise<{ result: T; worstMs: number; probes: number }> {
  let done = false;
  let worstMs = 0;
  let probes = 0;
  const pending = attack().finally(() => {
    done = true;
  });
  // Probe until the attack is answered, and at least a few times so that a quick answer is still
  // measured against a loop that may be busy finishing it.
  while (!done || probes < (opts.minProbes ?? 3)) {
    const t = performance.now();
    try {
      await (await fetch(`${url}/healthz`)).text();
    } catch {
      // A kept-alive connection the server closed as idle just as it was reused: once more, on a
      // new connection, timed from the first try.
      await (await fetch(`${url}/healthz`, { headers: { connection: 'close' } })).text();
    }
    worstMs = Math.max(worstMs, performance.now() - t);
    probes++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { result: await pending, worstMs, probes };
}
