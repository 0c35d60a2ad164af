/**
 * Billing overhead benchmark: a small content read (GET /v1/journals/content/{id}, markdown
 * cached) through the real app, with authentication, rate limiting and metering, against the same
 * app with them replaced by a fixed principal (createApp's `admission`) on the same service context,
 * in the same run. Rounds run in back-to-back pairs, alternating which goes first, so machine noise
 * hits both alike; the ratio is the median of the pairs' ratios. Goal: ratio <= 1.10. Bounded to
 * about 25 s.
 *
 * Both apps are warmed up for WARM_ROUNDS rounds first: V8 is still optimizing functions of the
 * request path thousands of requests in (on its own threads, whose CPU time process.cpuUsage
 * counts), and with one round of warm-up that compilation landed in whichever measured rounds it
 * fell in. A single round's ratio varies a lot (a compilation, a major GC or a flush of the
 * billing counters in one round and not the other: 0.65 to 2.0 seen on a quiet machine), so up to
 * MAX_PAIRS pairs are taken within the deadline rather than the 30 that took 8 s of it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { createApp, createContext, type ServiceContext } from '../server/app.ts';
import { createApiKey, createOrganization, resolveApiKey, resolveApiKeyNow, type Principal } from '../server/auth/keys.ts';
import { loadConfig } from '../server/config.ts';

const ROUND_REQUESTS = 400;
const CONCURRENCY = 8;
const WARM_ROUNDS = 8;
const MAX_PAIRS = 60;
const DEADLINE_MS = 20_000;

/** The same app with authentication, limits and metering replaced by a fixed caller. */
function bypassApp(ctx: ServiceContext, principal: Principal): express.Express {
  return createApp(ctx, [
    (req, _res, next) => {
      req.principal = principal;
      next();
    },
  ]);
}

async function listen(app: express.Express): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function get(agent: http.Agent, url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

interface Round {
  /** wall-clock microseconds per request */
  wall: number;
  /** CPU microseconds of this process (server and client) per request */
  cpu: number;
}

/** Cost per request of `n` requests at CONCURRENCY in flight. */
async function round(agent: http.Agent, url: string, key: string, n: number): Promise<Round> {
  let next = 0;
  let bad = 0;
  const worker = async () => {
    while (next++ < n) if ((await get(agent, url, key)) !== 200) bad++;
  };
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const cpu = process.cpuUsage(cpu0);
  const wall = ((performance.now() - start) * 1000) / n;
  if (bad > 0) throw new Error(`${bad} of ${n} requests to ${url} failed`);
  return { wall, cpu: (cpu.user + cpu.system) / n };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function benchBilling(): Promise<Record<string, number>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-billing-'));
  const ctx = await createContext(loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }));
  const org = await createOrganization(ctx.engine, 'bench', 'enterprise');
  const { api_key } = await createApiKey(ctx.engine, org.id);
  const principal = (await resolveApiKey(ctx.engine, api_key))!;
  // Room for every request of the run, through the same per-organization override path as production.
  await ctx.billing.setLimit(org.id, 'GET /journals/content/{id}', 'minute', 1_000_000_000);
  await ctx.billing.credits.set(org.id, 1_000 * 1_000_000);
  const journal = await ctx.journals.importMarkdown(principal, '# Bench\n\nA small journal with one *paragraph*.\n', 'Bench', undefined);
  await ctx.journals.content(journal); // warm the markdown cache

  const full = await listen(createApp(ctx));
  const bare = await listen(bypassApp(ctx, principal));
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const p = `/v1/journals/content/${journal.id}`;
  try {
    for (let i = 0; i < WARM_ROUNDS; i++) {
      await round(agent, full.url + p, api_key, ROUND_REQUESTS);
      await round(agent, bare.url + p, api_key, ROUND_REQUESTS);
    }
    const fullRounds: Round[] = [];
    const bareRounds: Round[] = [];
    const deadline = performance.now() + DEADLINE_MS;
    for (let i = 0; i < MAX_PAIRS && (i < 3 || performance.now() < deadline); i++) {
      // Alternate which goes first so neither always runs on a warmer or quieter machine.
      if (i % 2) {
        bareRounds.push(await round(agent, bare.url + p, api_key, ROUND_REQUESTS));
        fullRounds.push(await round(agent, full.url + p, api_key, ROUND_REQUESTS));
      } else {
        fullRounds.push(await round(agent, full.url + p, api_key, ROUND_REQUESTS));
        bareRounds.push(await round(agent, bare.url + p, api_key, ROUND_REQUESTS));
      }
    }
    // The per-request work that the bypass leaves out, measured directly (no HTTP).
    const n = 5_000;
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      // What the /v1 middleware calls: synchronous when answered from memory.
      const r = resolveApiKeyNow(ctx.engine, api_key);
      if (r instanceof Promise) await r;
      const a = ctx.billing.admitNow(principal, 'GET /journals/content/{id}');
      if (a instanceof Promise) await a;
    }
    const inProcessUs = ((performance.now() - t) * 1000) / n;
    // Medians of the per-pair ratios: each pair ran back to back, so slow drifts of the machine
    // cancel. CPU time is the primary figure: on a shared machine wall time also counts waiting
    // for other processes.
    const cpuRatio = median(fullRounds.map((f, i) => f.cpu / bareRounds[i]!.cpu));
    const wallRatio = median(fullRounds.map((f, i) => f.wall / bareRounds[i]!.wall));
    return {
      'billing_overhead_ratio (goal <= 1.10)': Math.round(cpuRatio * 1000) / 1000,
      billing_overhead_ratio_wall: Math.round(wallRatio * 1000) / 1000,
      content_read_full_cpu_us: round1(median(fullRounds.map((r) => r.cpu))),
      content_read_bypassed_cpu_us: round1(median(bareRounds.map((r) => r.cpu))),
      content_read_full_wall_us: round1(median(fullRounds.map((r) => r.wall))),
      content_read_bypassed_wall_us: round1(median(bareRounds.map((r) => r.wall))),
      auth_limits_metering_in_process_us: round1(inProcessUs),
      rounds: fullRounds.length,
    };
  } finally {
    agent.destroy();
    await new Promise((r) => full.server.close(r));
    await new Promise((r) => bare.server.close(r));
    ctx.registry.closeAll();
    await ctx.billing.close();
    await ctx.engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchBilling().then((r) => console.log(JSON.stringify(r, null, 2)));
}
