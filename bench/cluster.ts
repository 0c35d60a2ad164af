/**
 * Cluster benchmark (issue 13, item 8): several instances of the real server, each a child process
 * (`startChildServer`), on one fresh PostgreSQL database and one Redis (a REDIS_KEY_PREFIX of this
 * run's own), against one instance on SQLite in the same run:
 *
 * 1. REST edit on instance A -> 50 raw editors (ws + y-protocols + a Y.Doc each, bench/realtime.ts)
 *    connected to instance B have all applied it, and the same with the 50 editors on A: rounds
 *    of 10 edits (after one that warms up), the placements taking turns, 40 edits each, medians.
 *    Goals: B / A <= 2, and B under 15 ms. Also shown: when the first editor applied it, and when
 *    the REST answer came.
 * 2. Durable updates per second: three raw writers each send 5,000 small Yjs updates (one
 *    character typed each, at the end of the writer's own paragraph) as fast as the socket takes
 *    them; the clock stops when the store shows all of them committed: the sum of the journals'
 *    `journals.revision`, polled every 5 ms in PostgreSQL / in the SQLite file (a revision counts
 *    a committed row of the update log; compaction does not lower it). Cluster: one writer on
 *    each of 3 instances; SQLite: the 3 writers on its one instance. Two variants, each with the goal
 *    cluster / SQLite >= 0.5: one journal per writer (independent journals, the load a cluster
 *    spreads) and all three writers in the same journal (every instance also applies the others').
 *    Cluster and SQLite take turns: one untimed repetition, then three timed, medians compared;
 *    each repetition also sends 500 updates per writer first, untimed.
 * 3. 1,000 raw editors spread over the 3 instances (334/333/333): REST edit on A -> all 1,000
 *    applied, median over 20 edits; for scale, the same 1,000 editors all on A.
 *
 * Editors run in this process (one event loop): the fan-out figures include their own decoding.
 * Children run without per-connection WebSocket rate limits (throughput) and with connection
 * limits raised for 1,000 editors. When PostgreSQL or Redis is not reachable, the bench says so
 * and returns no figures. About two minutes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import * as Y from 'yjs';
import { DEFAULT_TEST_REDIS_URL, deleteRedisKeys, redisProblem, uniquePrefix } from '../test/cluster/harness.ts';
import { createOrgWithKey, keepLastLogLines, startChildServer, warnLines, type ChildServer } from '../test/helpers/child-server.ts';
import { freshPostgres, postgresAvailability, type FreshPostgres } from '../test/helpers/databases.ts';
import { sleep, until } from '../test/helpers/wait.ts';
import { percentile, RawEditor, watchMarker } from './realtime.ts';

const WS_PATH = '/v1/journals/realtime';
const REDIS_URL = process.env.TEST_REDIS_URL?.trim() || DEFAULT_TEST_REDIS_URL;
const EDITORS = 50;
const ROUND_EDITS = 10; // per round, after one that warms up
const RATE_RUNS = 3;
const WRITER_UPDATES = 5000;
const WARMUP_UPDATES = 500;
const MANY = 1000;
const MANY_EDITS = 21;

/** Environment of every child: throughput without per-connection rate limits, room for 1,000 editors. */
const CHILD_ENV: Record<string, string> = {
  WS_MAX_MESSAGES_PER_SECOND: '0',
  WS_MAX_BYTES_PER_SECOND: '0',
  WS_MAX_CONNECTIONS_PER_JOURNAL: '5000',
  WS_MAX_CONNECTIONS_PER_ORG: '5000',
  JOURNAL_IDLE_SECONDS: '3600',
  JOURNAL_MEMORY_CAP_MB: '0',
};

/** `until` with the bench's bounds: a minute, polled every millisecond (the clock may stop right after). */
const waitFor = (check: () => boolean | Promise<boolean>, what: string, ms = 60_000, every = 1) => until(check, what, ms, every);

/** A child instance, the last lines it logged (for the report when something fails) and how to stop it. */
interface Instance {
  name: string;
  url: string;
  server: ChildServer;
  dataDir: string;
  logs: string[];
  alive(): boolean;
  stop(): Promise<void>;
}

async function startInstance(name: string, dataDir: string, env: Record<string, string>): Promise<Instance> {
  const server = await startChildServer(dataDir, { ...CHILD_ENV, ...env });
  const logs = keepLastLogLines(server.child, 200);
  const alive = () => server.child.exitCode === null && server.child.signalCode === null;
  return {
    name,
    url: server.url,
    server,
    dataDir,
    logs,
    alive,
    async stop() {
      if (alive()) server.child.kill('SIGKILL');
      await server.exited;
    },
  };
}

/** Warnings and errors an instance logged, and whether it is still running: for a failure's report. */
function problemsOf(instances: Instance[]): string {
  const out: string[] = [];
  for (const i of instances) {
    out.push(`  instance ${i.name} (${i.url}): ${i.alive() ? 'running' : `exited (${i.server.child.exitCode ?? i.server.child.signalCode})`}`);
    for (const l of warnLines(i.logs).slice(-5)) out.push(`    ${l.slice(0, 400)}`);
  }
  return out.join('\n');
}

class Api {
  constructor(
    readonly url: string,
    readonly key: string,
  ) {}

  private async call(method: string, p: string, body: unknown): Promise<any> {
    const r = await fetch(this.url + p, {
      method,
      headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${method} ${p} on ${this.url}: ${r.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  }

  async importMarkdown(markdown: string): Promise<string> {
    return (await this.call('PUT', '/v1/journals/editor/import_from_markdown', { markdown, title: 'bench' })).journal_id;
  }

  async setParagraph(journalId: string, blockId: string, content: string): Promise<void> {
    await this.call('PATCH', '/v1/journals/editor/edit', {
      journal_id: journalId,
      operations: [{ type: 'update_node', nodeId: blockId, nodeType: 'paragraph', params: [{ content }] }],
      sync_realtime_state: true,
    });
  }
}

const MD = Array.from({ length: 50 }, (_, i) => `Paragraph ${i} of a journal with editors.`).join('\n\n');

function wsUrl(inst: Instance, journalId: string): string {
  return `${inst.url.replace(/^http/, 'ws')}${WS_PATH}/${journalId}`;
}

/** `count` raw editors of `journalId` on `inst`, connected 100 at a time, each synced. */
async function connectEditors(inst: Instance, journalId: string, key: string, count: number): Promise<RawEditor[]> {
  const out: RawEditor[] = [];
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, () => new RawEditor(wsUrl(inst, journalId), key));
    out.push(...batch);
    await waitFor(() => batch.every((e) => e.synced), `${batch.length} editors on ${inst.name} to sync`, 60_000, 5);
  }
  return out;
}

async function closeEditors(eds: RawEditor[]): Promise<void> {
  for (const e of eds) e.ws.terminate();
  await waitFor(() => eds.every((e) => e.ws.readyState === e.ws.CLOSED), 'editors to close', 10_000, 5);
}

function blockIdOf(doc: Y.Doc, index = 0): string {
  return (doc.getXmlFragment('prosemirror').get(index) as Y.XmlElement).getAttribute('id') as string;
}

/**
 * REST edits through `api`, each until every doc shows it: ms from sending the request to the
 * moment the last editor applied it. The first edit warms up and is not counted.
 */
async function restToEditors(api: Api, journalId: string, blockId: string, docs: Y.Doc[], edits: number, tag: string): Promise<{ last: number[]; first: number[]; response: number[] }> {
  const out = { last: [] as number[], first: [] as number[], response: [] as number[] };
  for (let i = 0; i < edits; i++) {
    const marker = `${tag} ${i}`;
    const watch = watchMarker(docs, marker);
    const t0 = performance.now();
    await api.setParagraph(journalId, blockId, marker);
    const answered = performance.now();
    await waitFor(() => watch.pending === 0, `${docs.length} editors to apply "${marker}" (${watch.pending} missing)`, 30_000);
    watch.stop();
    if (i > 0) {
      out.last.push(watch.last - t0);
      out.first.push(watch.first - t0);
      out.response.push(answered - t0);
    }
  }
  return out;
}

/**
 * Writers, one per (instance, journal) target: each connects, syncs, and makes `warm` + `n`
 * updates (one 'x' typed at the start of the first paragraph each) before anything is sent. The
 * warm-up updates are sent and committed first; then the clock runs from sending the first of the
 * `n` to the moment `revisionSum` (what the store has committed) shows all of them.
 */
async function durableRate(
  targets: { inst: Instance; journalId: string }[],
  key: string,
  revisionSum: () => Promise<number>,
  n: number,
  warm: number,
): Promise<{ perSecond: number; ms: number }> {
  const writers = targets.map((t) => new RawEditor(wsUrl(t.inst, t.journalId), key));
  try {
    await waitFor(() => writers.every((w) => w.synced), 'writers to sync', 30_000, 5);
    const made = writers.map((w, index) => {
      const updates: Uint8Array[] = [];
      const h = (u: Uint8Array, origin: unknown) => {
        if (origin !== w) updates.push(u);
      };
      w.doc.on('update', h);
      // Each writer types forward at the end of its own paragraph, as people do. (Typing at the
      // start of one shared text would measure Yjs's worst case: every remote insert is placed by
      // scanning all concurrent inserts before it, O(n) each.)
      const text = (w.doc.getXmlFragment('prosemirror').get(index) as Y.XmlElement).get(0) as Y.XmlText;
      for (let i = 0; i < warm + n; i++) text.insert(text.length, 'x');
      w.doc.off('update', h);
      return updates;
    });
    const total = writers.length * n;
    const r0 = await revisionSum();
    for (const [i, w] of writers.entries()) for (const u of made[i]!.slice(0, warm)) w.send(u);
    await waitFor(async () => (await revisionSum()) >= r0 + writers.length * warm, 'the warm-up updates to be committed', 60_000, 5);
    await sleep(200);
    const r1 = await revisionSum();
    const t0 = performance.now();
    for (const [i, w] of writers.entries()) for (const u of made[i]!.slice(warm)) w.send(u);
    await waitFor(async () => (await revisionSum()) >= r1 + total, `${total} updates to be committed`, 120_000, 5);
    const ms = performance.now() - t0;
    return { perSecond: Math.round(total / (ms / 1000)), ms };
  } finally {
    await closeEditors(writers);
  }
}

/** The PostgreSQL cluster: database, 3 instances, organization and key. */
interface PgCluster {
  db: FreshPostgres;
  prefix: string;
  key: string;
  instances: Instance[];
  pool: pg.Pool;
}

async function startPgCluster(count: number): Promise<PgCluster> {
  const db = await freshPostgres();
  const prefix = uniquePrefix('bench');
  const { key } = await createOrgWithKey(db.url, 'bench-cluster');
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const name = String.fromCharCode(65 + i);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `study-bench-cluster-${name}-`));
      instances.push(await startInstance(name, dataDir, { DATABASE_URL: db.url, REDIS_URL, REDIS_KEY_PREFIX: prefix }));
    }
  } catch (e) {
    await Promise.all(instances.map((i) => i.stop()));
    await db.drop().catch(() => {});
    throw e;
  }
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => {});
  return { db, prefix, key, instances, pool };
}

async function stopPgCluster(c: PgCluster): Promise<void> {
  await c.pool.end().catch(() => {});
  await Promise.all(c.instances.map((i) => i.stop()));
  await c.db.drop().catch((e) => console.warn(`cluster bench: dropping ${c.db.name}: ${(e as Error).message}`));
  await deleteRedisKeys(REDIS_URL, c.prefix);
  for (const i of c.instances) fs.rmSync(i.dataDir, { recursive: true, force: true });
}

/** One instance on SQLite (its own DATA_DIR), with an organization and key made in its file first. */
async function startSqliteInstance(): Promise<{ inst: Instance; key: string; file: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-bench-sqlite-'));
  const file = path.join(dataDir, 'study.db');
  const { key } = await createOrgWithKey(file, 'bench-sqlite');
  // Empty DATABASE_URL: SQLite even if the environment names a PostgreSQL database.
  const inst = await startInstance('S', dataDir, { DATABASE_URL: '', REDIS_URL: '' });
  return { inst, key, file };
}

interface Goal {
  name: string;
  met: boolean | undefined;
  detail: string;
}

export async function benchCluster(): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  // postgresAvailability() throws when TEST_DATABASE_URL is set but unusable: skipped here too.
  const pgState = await postgresAvailability().catch((e: Error) => ({ url: undefined, skipReason: e.message }));
  const redisWhy = await redisProblem(REDIS_URL);
  if (!pgState.url || redisWhy) {
    const why = [pgState.url ? '' : `PostgreSQL: ${pgState.skipReason}`, redisWhy ? `Redis: nothing usable at ${REDIS_URL} (${redisWhy})` : ''].filter(Boolean).join('; ');
    console.log(`cluster bench skipped (no figures): ${why}`);
    return figures;
  }

  console.log(`cluster bench: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the start (other processes skew the figures)`);
  const goals: Goal[] = [];
  const failures: string[] = [];
  const cluster = await startPgCluster(3);
  const [A, B, C] = cluster.instances as [Instance, Instance, Instance];
  const api = new Api(A.url, cluster.key);
  const section = async (what: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      const msg = `cluster bench: ${what} failed: ${(e as Error).stack ?? e}\n${problemsOf(cluster.instances)}`;
      console.log(msg);
      failures.push(what);
    }
  };
  try {
    // 1. REST edit on A -> 50 editors on A / on B: rounds of 10 edits, the two placements taking
    // turns (A B B A A B B A), after 10 edits with each placement to warm up, so that neither
    // gets a warmer or quieter machine.
    let onA: number | undefined;
    let onB: number | undefined;
    await section('REST edit on A -> 50 editors', async () => {
      const id = await api.importMarkdown(MD);
      const ms = { a: { last: [] as number[], first: [] as number[], response: [] as number[] }, b: { last: [] as number[], first: [] as number[], response: [] as number[] } };
      const order = ['b', 'a', 'a', 'b', 'b', 'a', 'a', 'b', 'b', 'a'] as const; // the first two warm up
      for (const [round, where] of order.entries()) {
        const eds = await connectEditors(where === 'a' ? A : B, id, cluster.key, EDITORS);
        try {
          const r = await restToEditors(api, id, blockIdOf(eds[0]!.doc), eds.map((e) => e.doc), ROUND_EDITS + 1, `edit on A, editors on ${where}, round ${round}`);
          if (round >= 2) for (const k of ['last', 'first', 'response'] as const) ms[where][k].push(...r[k]);
        } finally {
          await closeEditors(eds);
        }
      }
      for (const where of ['a', 'b'] as const) {
        const m = ms[where];
        const med = percentile(m.last, 50);
        if (where === 'a') onA = med;
        else onB = med;
        figures[`cluster.rest_on_a_to_${EDITORS}_editors_on_${where}_median_ms`] = med;
        figures[`cluster.rest_on_a_to_${EDITORS}_editors_on_${where}_p99_ms`] = percentile(m.last, 99);
        figures[`cluster.rest_on_a_to_${EDITORS}_editors_on_${where}: first editor applied, median ms`] = percentile(m.first, 50);
        figures[`cluster.rest_on_a_to_${EDITORS}_editors_on_${where}: REST answer, median ms`] = percentile(m.response, 50);
      }
    });
    if (onA !== undefined && onB !== undefined) {
      const ratio = onB / onA;
      figures['cluster.rest_a_to_b_vs_all_on_a (goal <= 2)'] = ratio;
      goals.push({ name: 'REST on A -> editors on B vs all on A <= 2x', met: ratio <= 2, detail: `${ratio.toFixed(2)}x (${onB.toFixed(2)} / ${onA.toFixed(2)} ms)` });
    } else goals.push({ name: 'REST on A -> editors on B vs all on A <= 2x', met: undefined, detail: 'not measured' });
    if (onB !== undefined) {
      figures['cluster.rest_a_to_b_median_ms (goal < 15)'] = onB;
      goals.push({ name: 'REST on A -> editors on B, median < 15 ms', met: onB < 15, detail: `${onB.toFixed(2)} ms` });
    } else goals.push({ name: 'REST on A -> editors on B, median < 15 ms', met: undefined, detail: 'not measured' });

    // 2. Durable updates per second: 3 instances on PostgreSQL vs one instance on SQLite, taking
    // turns, once to warm up and three times counted; the median of each.
    type Variant = 'separate' | 'same';
    const labels: Record<Variant, string> = { separate: 'one journal per writer', same: 'same journal' };
    const runs: Record<Variant, { pg: number[]; sqlite: number[] }> = { separate: { pg: [], sqlite: [] }, same: { pg: [], sqlite: [] } };
    const pgRevisions = (ids: string[]) => async () => {
      const r = await cluster.pool.query<{ s: string }>('SELECT COALESCE(SUM(revision), 0) AS s FROM journals WHERE id = ANY($1)', [ids]);
      return Number(r.rows[0]!.s);
    };
    let sqlite: Awaited<ReturnType<typeof startSqliteInstance>> | undefined;
    let reader: Database.Database | undefined;
    await section('durable updates/s, 3 instances on PostgreSQL vs 1 on SQLite', async () => {
      sqlite = await startSqliteInstance();
      const { inst: S, key: sKey } = sqlite;
      const sApi = new Api(S.url, sKey);
      reader = new Database(sqlite.file, { readonly: true, fileMustExist: true });
      const rd = reader;
      const sqliteRevisions = (ids: string[]) => {
        const stmt = rd.prepare(`SELECT COALESCE(SUM(revision), 0) AS s FROM journals WHERE id IN (${ids.map(() => '?').join(', ')})`);
        return async () => Number((stmt.get(...ids) as { s: number }).s);
      };
      // Rep 0 warms every set-up up (JIT, caches) and is not counted.
      for (let rep = 0; rep <= RATE_RUNS; rep++) {
        for (const variant of ['separate', 'same'] as const) {
          const engines = rep % 2 === 0 ? (['sqlite', 'pg'] as const) : (['pg', 'sqlite'] as const);
          for (const engine of engines) {
            const a = engine === 'pg' ? api : sApi;
            const ids = variant === 'separate' ? [await a.importMarkdown(MD), await a.importMarkdown(MD), await a.importMarkdown(MD)] : [await a.importMarkdown(MD)];
            const targets =
              engine === 'pg'
                ? [A, B, C].map((inst, i) => ({ inst, journalId: ids[Math.min(i, ids.length - 1)]! }))
                : [0, 1, 2].map((i) => ({ inst: S, journalId: ids[Math.min(i, ids.length - 1)]! }));
            const r = await durableRate(targets, engine === 'pg' ? cluster.key : sKey, engine === 'pg' ? pgRevisions(ids) : sqliteRevisions(ids), WRITER_UPDATES, WARMUP_UPDATES);
            if (rep > 0) runs[variant][engine].push(r.perSecond);
          }
        }
      }
    });
    reader?.close();
    if (sqlite) {
      await sqlite.inst.stop();
      fs.rmSync(sqlite.inst.dataDir, { recursive: true, force: true });
    }
    for (const variant of ['separate', 'same'] as const) {
      const label = labels[variant];
      const r = runs[variant];
      const name = `durable updates/s, 3 instances on PostgreSQL vs 1 on SQLite (${label}) >= 0.5x`;
      if (r.pg.length === RATE_RUNS && r.sqlite.length === RATE_RUNS) {
        const pgMed = percentile(r.pg, 50);
        const sqMed = percentile(r.sqlite, 50);
        figures[`cluster.durable_updates_per_s: 1 instance on SQLite, 3 writers, ${label} (median of ${RATE_RUNS}: ${r.sqlite.join(', ')})`] = sqMed;
        figures[`cluster.durable_updates_per_s: 3 instances on PostgreSQL, 1 writer each, ${label} (median of ${RATE_RUNS}: ${r.pg.join(', ')})`] = pgMed;
        const ratio = pgMed / sqMed;
        figures[`cluster.durable_updates_pg3_vs_sqlite1 (${label}) (goal >= 0.5)`] = ratio;
        goals.push({ name, met: ratio >= 0.5, detail: `${ratio.toFixed(2)}x (${pgMed} / ${sqMed} per s)` });
      } else goals.push({ name, met: undefined, detail: 'not measured' });
    }

    // 3. 1,000 editors over 3 instances; for scale, the same 1,000 on A alone.
    await section('REST edit on A -> 1,000 editors', async () => {
      const id = await api.importMarkdown(MD);
      const spread = [
        ...(await connectEditors(A, id, cluster.key, 334)),
        ...(await connectEditors(B, id, cluster.key, 333)),
        ...(await connectEditors(C, id, cluster.key, 333)),
      ];
      try {
        const ms = await restToEditors(api, id, blockIdOf(spread[0]!.doc), spread.map((e) => e.doc), MANY_EDITS, 'edit on A, 1,000 editors on A, B, C');
        figures[`cluster.rest_on_a_to_${MANY}_editors_on_3_instances_median_ms`] = percentile(ms.last, 50);
        figures[`cluster.rest_on_a_to_${MANY}_editors_on_3_instances_p99_ms`] = percentile(ms.last, 99);
      } finally {
        await closeEditors(spread);
      }
      const all = await connectEditors(A, id, cluster.key, MANY);
      try {
        const ms = await restToEditors(api, id, blockIdOf(all[0]!.doc), all.map((e) => e.doc), MANY_EDITS, 'edit on A, 1,000 editors on A');
        figures[`cluster.rest_on_a_to_${MANY}_editors_all_on_a_median_ms (for scale)`] = percentile(ms.last, 50);
      } finally {
        await closeEditors(all);
      }
    });
  } finally {
    await stopPgCluster(cluster);
  }

  const met = goals.filter((g) => g.met === true).length;
  console.log('\ncluster goals:');
  for (const g of goals) console.log(`  ${g.met === true ? 'ok  ' : 'MISS'} ${g.name}: ${g.detail}`);
  if (failures.length) console.log(`  failed sections (see above): ${failures.join('; ')}`);
  figures[`cluster.goals_met (of ${goals.length})`] = met;
  return figures;
}
