/**
 * Start-up and idle memory (issue 16, item 4; design card: close to a minimal Hocuspocus server,
 * 1.5x the time, 1.3x the RSS). Both run as child processes of this one, taking turns, five
 * rounds: ours as `npm start` runs it (node dist/server/main.mjs, compiled by
 * scripts/build-server.mjs, on a new SQLite DATA_DIR), and bench/fixtures/hocuspocus-minimal.mjs.
 * Start is the time from spawn to the first HTTP answer; idle RSS is read from /proc after one
 * quiet second. Figures are the medians.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  return kb / 1024;
}

async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Spawns `args`, polls until it answers HTTP, waits a quiet second, reads its RSS, stops it. */
async function measure(args: string[], env: Record<string, string>): Promise<{ startMs: number; rssMb: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      try {
        // A request accepted while the process is still starting must not hold the poll forever.
        await (await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
        break;
      } catch {
        await sleep(5);
      }
    }
    const startMs = performance.now() - started;
    await sleep(1000);
    return { startMs, rssMb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function benchStartup(): Promise<Record<string, number>> {
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root, stdio: 'ignore' });
  const ours: { startMs: number; rssMb: number }[] = [];
  const hocuspocus: { startMs: number; rssMb: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
    try {
      ours.push(await measure(['dist/server/main.mjs'], { DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', BOOTSTRAP_PRINT_KEY: 'false' }));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    hocuspocus.push(await measure(['bench/fixtures/hocuspocus-minimal.mjs'], {}));
  }
  const o = { start: median(ours.map((m) => m.startMs)), rss: median(ours.map((m) => m.rssMb)) };
  const h = { start: median(hocuspocus.map((m) => m.startMs)), rss: median(hocuspocus.map((m) => m.rssMb)) };
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    'startup.ours_start_ms': round(o.start),
    'startup.hocuspocus_start_ms': round(h.start),
    'startup.start_vs_hocuspocus (goal <= 1.5)': o.start / h.start,
    'startup.ours_idle_rss_mb': round(o.rss),
    'startup.hocuspocus_idle_rss_mb': round(h.rss),
    'startup.idle_rss_vs_hocuspocus (goal <= 1.3)': o.rss / h.rss,
  };
}
