/**
 * Issue 13, items 4 and 7: PostgreSQL briefly unreachable from three running instances (the
 * harness's TCP proxy between them and the server is cut for ~2 s, dropping every connection and
 * refusing — or resetting — new ones). Requests then fail with 503 (never a 500, never a 200 for
 * something that was not committed); once it is reachable again the same processes serve again,
 * without a restart, and their editors converge. A witness instance that knows only what
 * PostgreSQL holds checks what was acknowledged.
 */
import { describe, expect, it } from 'vitest';
import { blockText, editorBlocks, typeInto } from '../realtime/helpers.ts';
import {
  allSynced,
  appendParagraph,
  type Attempt,
  type Cluster,
  clusterAvailability,
  clusterSuite,
  converged,
  type CutMode,
  describeAttempts,
  eventually,
  expectNothingLost,
  type Instance,
  missingFrom,
  requestLoop,
  restBlocks,
  restShows,
  restTexts,
  restWriter,
  sleep,
  stateVector,
  Typist,
} from './harness.ts';

const avail = await clusterAvailability();

describe.skipIf(!!avail.skipReason)('cluster: PostgreSQL briefly unreachable', () => {
  let cluster: Cluster;
  let pids: number[];
  clusterSuite({ redisUrl: avail.redisUrl! }, (c) => {
    cluster = c;
    pids = c.instances.map((i) => i.pid);
  });

  // The same cluster goes through both outages, one after the other.
  it.each<CutMode>(['refuse', 'reset'])(
    'connections %s: 503 while it lasts, nothing acknowledged that was not committed, recovery without restart',
    { timeout: 240_000 },
    async (mode) => {
      const [A, B, C] = cluster.instances as [Instance, Instance, Instance];
      const { id, ids } = await cluster.journal(A, '# Outage\n\nalpha\n\nbeta\n\ngamma\n');
      // Journals made on A that B and C never load before the outage: reading one there needs PostgreSQL.
      const cold: string[] = [];
      for (let n = 0; n < 30; n++) cold.push(await A.client.importMarkdown(`# Cold ${n}\n\nnot loaded on B or C\n`));
      const probeCold = await A.client.importMarkdown('# Probe\n\nread on B and C during the outage only\n');
      const a1 = cluster.editor(A, id);
      const b1 = cluster.editor(B, id);
      const c1 = cluster.editor(C, id);
      const eds = [a1, b1, c1];
      await allSynced(eds);
      typeInto(b1, ids[0]!, 0, 'ok ');
      await eventually(() => eds.every((e) => blockText(e, ids[0]!) === 'ok Outage'), 'fan-out before the outage', 20_000);

      // Load on every instance: typing, edits, imports (and reads of cold journals, below).
      const typists = [new Typist(a1, ids[1]!, 'a'), new Typist(b1, ids[2]!, 'b'), new Typist(c1, ids[3]!, 'c')].map((t) => t.start());
      let running = true;
      const stop = () => !running;
      const writers = [A, B, C].map((i) => restWriter(i, id, `rest-${mode}-${i.name}`, { stop, pauseMs: 20 }));
      const importers = [A, B, C].map((i) =>
        requestLoop(i, 'import', (n) => {
          const text = `imported-${mode}-${i.name}-${n}`;
          return { text, send: () => i.client.put('/v1/journals/editor/import_from_markdown', { markdown: `${text}\n` }) };
        }, { stop, pauseMs: 200 }),
      );
      const loops: { attempts: Attempt[]; done: Promise<void> }[] = [...writers, ...importers];
      const attempts = (): Attempt[] => loops.flatMap((l) => l.attempts);
      await eventually(() => typists.every((t) => t.n >= 20) && writers.every((w) => w.acked().length >= 5), 'load under way', 60_000);

      // The outage. Readers of the cold journals (each read once on B and once on C) run through it.
      let reading = true;
      const readers = [B, C].map((i) =>
        requestLoop(i, 'read', (n) => ({ text: `cold ${n}`, send: () => i.client.get(`/v1/journals/editor/model/${cold[n]}`) }), {
          stop: (() => {
            let n = 0;
            return () => !reading || n++ >= cold.length;
          })(),
          pauseMs: 100,
        }),
      );
      loops.push(...readers);
      const cutAt = Date.now();
      await cluster.proxy.cut(mode);
      await sleep(300);
      // Probes while it lasts, each waited for (PostgreSQL stays away meanwhile): an edit, an
      // import on every instance, a read of a journal never loaded there on B and C: all 503.
      const probes = await Promise.all(
        cluster.instances.flatMap((i) => [
          i.client.edit(id, appendParagraph(`probe-${mode}-${i.name}`)).then((r) => ({ what: `edit on ${i.name}`, r })),
          i.client.put('/v1/journals/editor/import_from_markdown', { markdown: `probe-${mode}-${i.name}\n` }).then((r) => ({ what: `import on ${i.name}`, r })),
          ...(i === A ? [] : [i.client.get(`/v1/journals/editor/model/${probeCold}`).then((r) => ({ what: `read of an unloaded journal on ${i.name}`, r }))]),
        ]),
      );
      await sleep(Math.max(0, cutAt + 2000 - Date.now()));
      expect(cluster.proxy.isCut).toBe(true);
      // What the editors have received by the end of the outage was broadcast, hence committed
      // (before it began). They leave now, before PostgreSQL is back, taking what they typed
      // meanwhile with them: no editor can resend what another one was shown but not committed.
      const seen = eds.map((e, i) => ({ name: ['a1', 'b1', 'c1'][i]!, sv: stateVector(e), own: e.doc.clientID }));
      for (const e of eds) e.provider.destroy();
      const restoreAt = Date.now();
      await cluster.proxy.restore();
      reading = false;

      // The same processes serve again: an edit succeeds on each, and the load resumes.
      for (const i of cluster.instances) {
        await eventually(async () => {
          const r = await i.client.edit(id, appendParagraph(`recovered-${mode}-${i.name}`));
          if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
          return true;
        }, `an edit on ${i.name} after the outage`, 60_000, 200);
      }
      await eventually(() => writers.every((w) => w.attempts.some((a) => a.started > restoreAt && a.status === 200)), 'REST writers to succeed again', 60_000);
      for (const i of [B, C]) {
        await eventually(async () => (await i.client.get(`/v1/journals/editor/model/${cold.at(-1)}`)).status === 200, `a cold journal read on ${i.name} after the outage`, 60_000, 200);
      }
      await sleep(1000);
      await Promise.all(typists.map((t) => t.stop()));
      running = false;
      await Promise.all(loops.map((l) => l.done));
      expect(cluster.instances.map((i) => i.alive()), 'instances still running').toEqual([true, true, true]);
      expect(cluster.instances.map((i) => i.pid), 'the same processes').toEqual(pids);

      expect(
        probes.filter((p) => p.r.status !== 503 || !p.r.headers.get('retry-after')).map((p) => `${p.what}: ${p.r.status} ${JSON.stringify(p.r.body)}`),
        'probes during the outage answered other than 503 with Retry-After',
      ).toEqual([]);
      // Every answer was 200 or 503 (with Retry-After); none was a 500 or no answer at all.
      const all = attempts();
      expect(describeAttempts(all.filter((a) => a.status !== 200 && a.status !== 503), cutAt), 'answers other than 200 and 503').toEqual([]);
      expect(describeAttempts(all.filter((a) => a.status === 503 && !a.retryAfter), cutAt), '503 without Retry-After').toEqual([]);
      // The outage was felt: requests made during it failed with 503.
      const startedDuring = all.filter((a) => a.started >= cutAt && a.started < restoreAt);
      expect(startedDuring.filter((a) => a.status === 503).length, '503s for requests made during the outage').toBeGreaterThan(0);
      // A write made and answered while PostgreSQL was unreachable cannot have been committed: no 200.
      const within = all.filter((a) => a.started >= cutAt && a.ended <= restoreAt);
      expect(describeAttempts(within.filter((a) => (a.kind === 'edit' || a.kind === 'import') && a.status === 200), cutAt), 'writes acknowledged during the outage').toEqual([]);
      // A journal nobody on B or C had loaded cannot be read there without PostgreSQL.
      expect(describeAttempts(within.filter((a) => a.kind === 'read' && a.status === 200), cutAt), 'reads of an unloaded journal answered during the outage').toEqual([]);

      // Everything acknowledged is in PostgreSQL (the witness sees no fan-out).
      const witness = await cluster.witness();
      const acked = [...writers.flatMap((w) => w.acked()), ...cluster.instances.map((i) => `recovered-${mode}-${i.name}`)];
      const committed = await restTexts(witness.client, id);
      expect(acked.filter((t) => !committed.includes(t)), 'acknowledged edits missing from PostgreSQL').toEqual([]);
      for (const imp of all.filter((a) => a.kind === 'import' && a.status === 200)) {
        const r = await witness.client.get(`/v1/journals/content/${imp.body.journal_id}`);
        expect(r.status, `acknowledged import ${imp.text}`).toBe(200);
        expect(r.body.content).toBe(`${imp.text}\n`);
      }
      const w1 = cluster.editor(witness, id);
      await allSynced([w1]);
      for (const s of seen) expect(missingFrom(stateVector(w1), s.sv, s.own), `updates ${s.name} had received by the end of the outage, missing from PostgreSQL`).toEqual([]);

      // The editors come back to the same instances with their documents (and what they typed
      // while away) and converge: every keystroke, every acknowledged edit; REST reads agree.
      const back = [A, B, C].map((i, k) => cluster.editor(i, id, { doc: eds[k]!.doc }));
      await allSynced(back);
      await converged(back, 'the editors to converge after the outage', 60_000);
      const [a2] = back as [typeof a1];
      expectNothingLost(a2, typists, ['alpha', 'beta', 'gamma'], acked);
      const expected = editorBlocks(a2);
      await restShows(cluster.instances, id, expected);
      const witness2 = await cluster.witness();
      expect(await restBlocks(witness2.client, id), 'the document in PostgreSQL').toEqual(expected);
      await witness.kill();
      await witness2.kill();
    },
  );
});
