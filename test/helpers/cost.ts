/**
 * How a test says "this work is bounded" without asserting a wall-clock time (which measures the
 * machine: a busy or slow one fails, an idle one passes): it compares the CPU time the process
 * spends on the work under test with a baseline measured in the same test — the same code on an
 * ordinary input — so whatever slows the machine slows both. CPU time (process.cpuUsage, every
 * thread of this process) is also not inflated by other processes waiting for the cores.
 */
import { expect } from 'vitest';

function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU milliseconds `fn` took (the median of `runs` runs, to damp a collection landing in one). */
export async function cpuMs(fn: () => unknown, runs = 1): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = cpuNow();
    await fn();
    times.push(cpuNow() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Asserts that `work` costs at most `factor` times `baseline`: e.g. a hostile input against an
 * ordinary one of the same call, or a large input against one a tenth its size. Both are the
 * median of three runs, and the baseline is floored at 2 ms, so that a collection landing in a
 * run of a millisecond or two does not decide (a work that is not bounded costs far more).
 */
export async function expectCostWithin(work: () => unknown, baseline: () => unknown, factor: number, what = 'the work'): Promise<void> {
  const base = Math.max(2, await cpuMs(baseline, 3));
  const cost = await cpuMs(work, 3);
  expect(cost, `${what} took ${cost.toFixed(1)} ms of CPU, the baseline ${base.toFixed(1)} ms (at most ${factor}x)`).toBeLessThanOrEqual(base * factor);
}
