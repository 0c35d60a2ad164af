/**
 * Measures GET /healthz while a hostile request is in flight, in a way that measures the code and
 * not the machine.
 *
 * Each probe is timed by the wall clock (what a load balancer sees) and, on Linux, by the CPU time
 * the server's main thread (the event loop) spent meanwhile, read from /proc. A stall caused by the
 * service's own code shows in both: the loop computes for as long as the probe waits. A probe that
 * waits because the two cores are busy with other processes shows a long wall time but little
 * main-thread CPU. `blockedMs` is the part of the wait the service's main thread accounts for:
 * min(wall, main-thread CPU + the idle baseline taken in the same call), its worst over the
 * probes; tests bound that (expectResponsive), the benchmarks print the wall-clock figure.
 */
import fs from 'node:fs';
import { expect } from 'vitest';

/** The bound of docs/security.md: no request or message holds /healthz longer. */
export const HEALTHZ_BOUND_MS = 250;

const PAUSE_MS = 20;
const TICK_MS = 10; // Linux USER_HZ: /proc reports CPU time in hundredths of a second

/** CPU time (ms) of a process's main thread, or undefined where /proc is not readable. */
function mainThreadCpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'latin1');
    // Fields after the parenthesised command name (which may hold spaces): utime is the 14th
    // field of the line, stime the 15th, i.e. the 12th and 13th after ") ".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

async function probeOnce(url: string): Promise<void> {
  try {
    await (await fetch(`${url}/healthz`)).text();
  } catch {
    // A kept-alive connection the server closed as idle just as it was reused: once more, on a
    // new connection.
    await (await fetch(`${url}/healthz`, { headers: { connection: 'close' } })).text();
  }
}

export interface HealthProbe<T> {
  result: T;
  /** Worst wall-clock latency of a probe while the attack was in flight. */
  worstMs: number;
  /** Worst latency the server's own main thread accounts for (see the file's comment). */
  blockedMs: number;
  /** Worst wall-clock latency of the idle probes taken just before the attack. */
  idleMs: number;
  probes: number;
}

export interface ProbeOptions {
  minProbes?: number;
  /** The server's process id (a child server); default this process (an in-process server). */
  pid?: number;
}

export async function whileProbingHealth<T>(url: string, attack: () => Promise<T>, opts: ProbeOptions = {}): Promise<HealthProbe<T>> {
  const pid = opts.pid ?? process.pid;
  // The idle baseline, in the same call: what a probe costs on this machine right now.
  let idleMs = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await probeOnce(url);
    idleMs = Math.max(idleMs, performance.now() - t);
  }
  let done = false;
  let worstMs = 0;
  let blockedMs = 0;
  let probes = 0;
  const pending = attack().finally(() => {
    done = true;
  });
  // Probe until the attack is answered, and at least a few times so that a quick answer is still
  // measured against a loop that may be busy finishing it.
  // Each round is a pause and a probe; a round is timed from the end of the previous one, less the
  // pause, so that a stall while the prober itself waits (an in-process server's stall delays its
  // timers too) counts as well as one during the request.
  let cpu0 = mainThreadCpuMs(pid);
  let t0 = performance.now();
  while (!done || probes < (opts.minProbes ?? 3)) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    await probeOnce(url);
    const t1 = performance.now();
    const cpu1 = mainThreadCpuMs(pid);
    const wall = Math.max(0, t1 - t0 - PAUSE_MS);
    worstMs = Math.max(worstMs, wall);
    // Tick granularity: the CPU figure may be short by one tick at each end.
    const own = cpu0 === undefined || cpu1 === undefined ? wall : Math.min(wall, cpu1 - cpu0 + 2 * TICK_MS + idleMs);
    blockedMs = Math.max(blockedMs, own);
    probes++;
    t0 = t1;
    cpu0 = cpu1;
  }
  return { result: await pending, worstMs, blockedMs, idleMs, probes };
}

/**
 * The service answered /healthz within HEALTHZ_BOUND_MS of its idle baseline throughout, as far as
 * its own work goes: on a quiet machine the baseline is a few ms, on a loaded one a probe already
 * waits for a core before the attack starts, and that wait is the machine's, not the code's.
 */
export function expectResponsive(probe: Pick<HealthProbe<unknown>, 'worstMs' | 'blockedMs' | 'idleMs'>): void {
  const heldBeyondIdle = probe.blockedMs - probe.idleMs;
  const figures = `main thread held /healthz ${probe.blockedMs.toFixed(0)} ms (idle baseline ${probe.idleMs.toFixed(0)} ms, wall clock ${probe.worstMs.toFixed(0)} ms)`;
  expect(heldBeyondIdle, figures).toBeLessThan(HEALTHZ_BOUND_MS);
}
