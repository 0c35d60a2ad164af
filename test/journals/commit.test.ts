/**
 * The journal commit path on both engines: group commit, revisions taken by the store (unique
 * across instances), and the LiveJournal rule that nothing uncommitted is ever shown — settled
 * tasks run only on committed state, and listeners hear of updates only after their commit.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { GroupCommitter } from '../../server/journals/group-commit.ts';
import { JournalUnloadedError, LiveJournal, LOG_ORIGIN, type JournalHooks } from '../../server/journals/live.ts';
import { JournalStore } from '../../server/journals/store.ts';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { engineCases, type FreshDatabase } from '../helpers/databases.ts';

const cases = await engineCases();
const LIMITS = { compactAfterUpdates: 1_000_000, compactAfterBytes: 1 << 30 };

/** A journal row with an empty first snapshot, as JournalService.create makes one. */
async function newJournal(store: JournalStore): Promise<{ seq: number; id: string }> {
  const now = new Date().toISOString();
  const orgId = randomUUID();
  await store.engine.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [orgId, 'o', 'developer', now]);
  const keyId = randomUUID();
  await store.engine.run('INSERT INTO api_keys (id, org_id, name, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)', [keyId, orgId, null, randomUUID(), 'sk_', now]);
  const row = await store.create(store.engine, { id: randomUUID(), key_id: keyId, org_id: orgId, title: 't', team_slug: null, snapshot: Y.encodeStateAsUpdate(new Y.Doc()) });
  return { seq: row.seq, id: row.id };
}

/** An editor's typing: `n` separate updates, each inserting one character. */
function typing(n: number): Uint8Array[] {
  const doc = new Y.Doc();
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  const text = doc.getXmlFragment(FRAGMENT_NAME);
  const p = new Y.XmlElement('paragraph');
  text.insert(0, [p]);
  const t = new Y.XmlText();
  p.insert(0, [t]);
  for (let i = 0; i < n; i++) t.insert(i, String(i % 10));
  return updates;
}

function textLength(live: LiveJournal): number {
  const p = live.fragment.get(0) as Y.XmlElement | undefined;
  return p ? (p.get(0) as Y.XmlText).length : 0;
}

function hooks(): JournalHooks & { brokenWith: unknown[] } {
  const brokenWith: unknown[] = [];
  return { brokenWith, compactDue: () => {}, broken: (_live, err) => brokenWith.push(err) };
}

describe.each(cases)('$title engine', (c) => {
  describe.skipIf(!!c.skipReason)('', () => {
    let db: FreshDatabase;
    let engine: StorageEngine;
    let store: JournalStore;

    beforeAll(async () => {
      db = await c.freshDatabase();
      engine = await db.open();
      store = new JournalStore(engine);
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('group commit: parallel appends to several journals share transactions; revisions are consecutive per journal', async () => {
      const committer = new GroupCommitter(engine, store);
      const journals = await Promise.all([newJournal(store), newJournal(store), newJournal(store)]);
      const appends: Promise<number | undefined>[] = [];
      for (let i = 0; i < 60; i++) for (const j of journals) appends.push(committer.append(j.seq, [new Uint8Array([i])]));
      const lasts = await Promise.all(appends);
      for (const [k, j] of journals.entries()) {
        const mine = lasts.filter((_, i) => i % 3 === k);
        expect(mine).toEqual(Array.from({ length: 60 }, (_, i) => i + 2)); // revision 1 is the creation
        const rows = await store.updatesBetween(j.seq, 0, 1000);
        expect(rows.map((r) => r.revision)).toEqual(Array.from({ length: 60 }, (_, i) => i + 2));
        expect(rows.map((r) => r.data[0])).toEqual(Array.from({ length: 60 }, (_, i) => i));
      }
      expect(committer.stats.updates).toBe(180);
      expect(committer.stats.transactions).toBeLessThan(180);
    });

    it('appends made by separate callbacks of one event-loop turn (messages of several sockets read together) share one transaction', async () => {
      const committer = new GroupCommitter(engine, store, true);
      const journals = await Promise.all([newJournal(store), newJournal(store), newJournal(store)]);
      // Immediates queued together run in one check phase, each followed by its microtasks, as the
      // messages of the sockets one poll read are: the transaction waits for the turn, not a timer.
      // (Timers were used first: each takes the clock when it is set, so under load the last one
      // could fall due one millisecond later, in the next turn.)
      const appends = await new Promise<Promise<number | undefined>[]>((resolve) => {
        const out: Promise<number | undefined>[] = [];
        for (const j of journals) {
          setImmediate(() => {
            out.push(committer.append(j.seq, [new Uint8Array([7])]));
            if (out.length === journals.length) resolve(out);
          });
        }
      });
      expect(await Promise.all(appends)).toEqual([2, 2, 2]); // revision 1 is the creation
      expect(committer.stats).toEqual({ transactions: 1, updates: 3 });
    });

    it('an append to a deleted journal resolves undefined and does not fail the others of its transaction', async () => {
      const committer = new GroupCommitter(engine, store);
      const [a, b] = await Promise.all([newJournal(store), newJournal(store)]);
      await store.delete(engine, b.seq);
      const [ra, rb] = await Promise.all([committer.append(a.seq, [new Uint8Array([1])]), committer.append(b.seq, [new Uint8Array([2])])]);
      expect(ra).toBe(2);
      expect(rb).toBeUndefined();
    });

    // SQLite serves one instance (one process); two engines on one file in one thread would wait on each other.
    it.skipIf(c.kind === 'sqlite')('two instances appending to one journal at once get distinct revisions and lose nothing', async () => {
      const other = await db.open();
      const stores = [store, new JournalStore(other)];
      const committers = stores.map((s) => new GroupCommitter(s.engine, s));
      const j = await newJournal(store);
      const all = await Promise.all(Array.from({ length: 80 }, (_, i) => committers[i % 2]!.append(j.seq, [new Uint8Array([i])])));
      expect(new Set(all).size).toBe(80);
      const rows = await store.updatesBetween(j.seq, 0, 1000);
      expect(rows.map((r) => r.revision)).toEqual(Array.from({ length: 80 }, (_, i) => i + 2));
      expect(new Set(rows.map((r) => r.data[0])).size).toBe(80);
    });

    it('settled tasks see only committed state; listeners hear of updates after their commit, in order', async () => {
      const committer = new GroupCommitter(engine, store);
      const j = await newJournal(store);
      const h = hooks();
      const live = (await LiveJournal.load(j.id, j.seq, store, committer, LIMITS, h))!;
      const heard: number[] = [];
      live.onCommitted(() => heard.push(live.revision));
      const updates = typing(50);
      const reads: Promise<{ settled: boolean; revision: number; chars: number }>[] = [];
      for (const [i, u] of updates.entries()) {
        live.intake(() => Y.applyUpdate(live.doc, u, 'editor'));
        if (i % 10 === 9) {
          reads.push(live.settledTask(() => ({ settled: live.settled, revision: live.revision, chars: textLength(live) })));
        }
      }
      const seen = await Promise.all(reads);
      for (const [k, r] of seen.entries()) {
        // Each read waited for the updates applied before it to commit, and later ones were held back.
        expect(r).toEqual({ settled: true, revision: 1 + 10 * (k + 1), chars: 10 * (k + 1) - 2 }); // the first two updates make the paragraph
      }
      await live.drain();
      expect(live.revision).toBe(1 + updates.length);
      expect(heard.length).toBe(updates.length);
      expect(heard).toEqual([...heard].sort((x, y) => x - y));
      expect(heard.at(-1)).toBe(1 + updates.length);
      expect((await store.updatesBetween(j.seq, 0, 10_000)).length).toBe(updates.length);
      expect(h.brokenWith).toEqual([]);
      // Reloaded from the store, the document is the same.
      const again = (await LiveJournal.load(j.id, j.seq, store, committer, LIMITS, hooks()))!;
      expect(again.fragment.toString()).toBe(live.fragment.toString());
      live.close('shutdown');
      again.close('shutdown');
    });

    it('a journal that another instance wrote to meanwhile catches up from the log before counting its own commit', async () => {
      const other = await db.open();
      const otherStore = new JournalStore(other);
      const j = await newJournal(store);
      const h = hooks();
      const live = (await LiveJournal.load(j.id, j.seq, store, new GroupCommitter(engine, store), LIMITS, h))!;
      const heard: unknown[] = [];
      live.onCommitted((_u, origin) => heard.push(origin));
      // The other instance appends revision 2 behind this one's back.
      const [foreign] = typing(1);
      expect(await new GroupCommitter(other, otherStore).append(j.seq, [foreign!])).toBe(2);
      // This one's next commit is revision 3: revision 2 is read from the log and applied first.
      live.intake(() => Y.applyUpdate(live.doc, typing(1)[0]!, 'editor'));
      await live.drain();
      expect(live.revision).toBe(3);
      expect(live.fragment.length).toBe(2); // both paragraphs
      expect(heard.map((o) => (o === 'editor' ? 'editor' : (o as object).constructor.name))).toEqual(['RemoteOrigin', 'editor']);
      expect(h.brokenWith).toEqual([]);
      // And what the store holds is the same document.
      const reloaded = (await LiveJournal.load(j.id, j.seq, store, new GroupCommitter(engine, store), LIMITS, hooks()))!;
      expect(reloaded.fragment.toString()).toBe(live.fragment.toString());
      // A journal compacted by another instance is caught up from its snapshot.
      await reloaded.compact();
      const third = (await LiveJournal.load(j.id, j.seq, store, new GroupCommitter(engine, store), LIMITS, hooks()))!;
      for (const u of typing(3)) third.intake(() => Y.applyUpdate(third.doc, u, 'editor'));
      await third.drain();
      await otherStore.compact(j.seq, Y.encodeStateAsUpdate(third.doc), third.revision);
      await live.syncTo(third.revision);
      expect(live.revision).toBe(third.revision);
      expect(live.fragment.toString()).toBe(third.fragment.toString());
      for (const x of [live, reloaded, third]) x.close('shutdown');
    });

    it.skipIf(c.kind === 'sqlite')('two instances compacting one journal at once lose nothing', async () => {
      const engines = [engine, await db.open()];
      const stores = engines.map((e) => new JournalStore(e));
      const j = await newJournal(store);
      const lives = await Promise.all(stores.map((s) => LiveJournal.load(j.id, j.seq, s, new GroupCommitter(s.engine, s), LIMITS, hooks())));
      const [a, b] = lives as LiveJournal[];
      // Each instance takes in its own editors' typing; each catches up on the other's through the log.
      for (const [live, n] of [
        [a, 40],
        [b, 25],
      ] as const) {
        for (const u of typing(n)) live.intake(() => Y.applyUpdate(live.doc, u, 'editor'));
      }
      await Promise.all([a.drain(), b.drain()]);
      const stored = (await store.revisions([j.seq])).get(j.seq)!;
      await Promise.all([a.syncTo(stored), b.syncTo(stored)]);
      expect(a.fragment.toString()).toBe(b.fragment.toString());
      // More typing on one while both compact at once.
      for (const u of typing(10)) a.intake(() => Y.applyUpdate(a.doc, u, 'editor'));
      await Promise.all([a.compact(), b.compact(), a.drain()]);
      const reloaded = (await LiveJournal.load(j.id, j.seq, store, new GroupCommitter(engine, store), LIMITS, hooks()))!;
      expect(reloaded.revision).toBe(1 + 42 + 27 + 12);
      expect(reloaded.fragment.toString()).toBe(a.fragment.toString());
      expect(reloaded.fragment.length).toBe(3);
      for (const x of [a, b, reloaded]) x.close('shutdown');
    });

    it('a failed commit breaks the journal: nothing is heard, waiting settled tasks are refused', async () => {
      const doomed = await db.open();
      const doomedStore = new JournalStore(doomed);
      const j = await newJournal(store);
      const h = hooks();
      const live = (await LiveJournal.load(j.id, j.seq, doomedStore, new GroupCommitter(doomed, doomedStore), LIMITS, h))!;
      const heard: unknown[] = [];
      live.onCommitted((u) => heard.push(u));
      await doomed.close();
      live.intake(() => Y.applyUpdate(live.doc, typing(1)[0]!, 'editor'));
      await expect(live.settledTask(() => 'read')).rejects.toThrow();
      expect(h.brokenWith.length).toBe(1);
      expect(heard).toEqual([]);
      expect((await store.updatesBetween(j.seq, 0, 100)).length).toBe(0);
      live.close('shutdown');
    });

    it('compaction keeps everything: the snapshot at the committed revision replaces exactly the log up to it', async () => {
      const committer = new GroupCommitter(engine, store);
      const j = await newJournal(store);
      const live = (await LiveJournal.load(j.id, j.seq, store, committer, LIMITS, hooks()))!;
      const updates = typing(30);
      for (const u of updates) live.intake(() => Y.applyUpdate(live.doc, u, 'editor'));
      await live.drain();
      const text = live.fragment.toString();
      await live.compact();
      expect(await store.logSize(j.seq)).toEqual({ count: 0, bytes: 0 });
      // A compaction by another instance with an older snapshot changes nothing.
      expect(await store.compact(j.seq, Y.encodeStateAsUpdate(new Y.Doc()), 5)).toBe(false);
      const again = (await LiveJournal.load(j.id, j.seq, store, committer, LIMITS, hooks()))!;
      expect(again.fragment.toString()).toBe(text);
      expect(again.revision).toBe(1 + updates.length);
      live.close('shutdown');
      again.close('shutdown');
      expect(LOG_ORIGIN).toBeTypeOf('symbol');
    });
  });
});
