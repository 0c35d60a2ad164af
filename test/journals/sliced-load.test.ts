/**
 * Cold loads in slices (server/journals/sliced-load.ts, load-plan.ts): a journal loaded from the
 * store through the worker's causal chunks is the same document as one loaded in one piece
 * (content, deleted content, state vector, block-id audit), and its load never holds the event
 * loop for more than a small part of what the one-piece load holds it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { LOAD_WORKER_ENTRY, WORKER_ENTRY } from '../../server/app.ts';
import { GroupCommitter } from '../../server/journals/group-commit.ts';
import { LiveJournal, type JournalHooks } from '../../server/journals/live.ts';
import { causalOrder, chunks, scanState, type StateIndex } from '../../server/journals/load-plan.ts';
import type { SlicedLoader } from '../../server/journals/sliced-load.ts';
import { JournalStore } from '../../server/journals/store.ts';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { WorkerPool } from '../../server/workers/pool.ts';
import { FRAGMENT_NAME } from '../../shared/schema.ts';
import { engineCases, type FreshDatabase } from '../helpers/databases.ts';

const LIMITS = { compactAfterUpdates: 1_000_000, compactAfterBytes: 1 << 30 };
const hooks = (): JournalHooks => ({ compactDue: () => {}, broken: () => {} });

/**
 * A journal written by three clients in rounds (each inserts blocks of `blockBytes` characters
 * in the middle, deletes two blocks, types in and deletes from the first block), synced after
 * each round: the first round's state is the snapshot, every later change an update of the log.
 * Two blocks share an id and one has none, for the block-id audit.
 */
function history(blocks: number, blockBytes: number): { snapshot: Uint8Array; updates: Uint8Array[] } {
  const docs = [11, 22, 33].map((client) => {
    const d = new Y.Doc();
    d.clientID = client;
    return d;
  });
  const updates: Uint8Array[] = [];
  let snapshot: Uint8Array | undefined;
  const rounds = 3;
  for (let r = 0; r < rounds; r++) {
    for (const [k, d] of docs.entries()) {
      const f = d.getXmlFragment(FRAGMENT_NAME);
      const record = (u: Uint8Array) => updates.push(u);
      if (k === 0 && snapshot) d.on('update', record);
      d.transact(() => {
        const els: Y.XmlElement[] = [];
        for (let i = 0; i < blocks / (rounds * docs.length); i++) {
          const p = new Y.XmlElement('paragraph');
          if (!(r === 1 && k === 1 && i === 0)) p.setAttribute('id', r === 2 && k === 2 && i === 0 ? 'b0-0-0' : `b${r}-${k}-${i}`);
          p.insert(0, [new Y.XmlText(`${r}.${k}.${i} `.padEnd(blockBytes, 'x'))]);
          els.push(p);
        }
        f.insert(Math.floor(f.length / 2), els);
      });
      if (f.length > 4) f.delete(1, 2);
      const t = (f.get(0) as Y.XmlElement).get(0) as Y.XmlText;
      t.insert(3, `typed ${r}${k}`);
      t.delete(0, 2);
      d.off('update', record);
    }
    // Everyone gets everyone's changes; the first doc's share of it goes to the log.
    for (const a of docs) {
      for (const b of docs) {
        if (a === b) continue;
        const diff = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b));
        if (b === docs[0] && snapshot) updates.push(diff);
        Y.applyUpdate(b, diff);
      }
    }
    if (!snapshot) {
      snapshot = Y.encodeStateAsUpdate(docs[0]!);
      updates.length = 0;
    }
  }
  return { snapshot: snapshot!, updates };
}

const sqlite = (await engineCases()).find((c) => c.kind === 'sqlite')!;

describe('cold loads in slices', () => {
  let db: FreshDatabase;
  let engine: StorageEngine;
  let store: JournalStore;
  let committer: GroupCommitter;
  let pool: WorkerPool;
  let loader: SlicedLoader;
  const fallbacks: unknown[] = [];

  beforeAll(async () => {
    db = await sqlite.freshDatabase();
    engine = await db.open();
    store = new JournalStore(engine);
    committer = new GroupCommitter(engine, store);
    pool = new WorkerPool(WORKER_ENTRY, { baseMs: 60_000, perKibMs: 25, workers: 1 });
    loader = { pool, entry: LOAD_WORKER_ENTRY, minBytes: 1, onFallback: (err) => fallbacks.push(err) };
  });
  afterAll(async () => {
    await pool?.close();
    await db?.drop();
  });

  async function stored(state: { snapshot: Uint8Array; updates: Uint8Array[] }): Promise<{ id: string; seq: number }> {
    const now = new Date().toISOString();
    const orgId = randomUUID();
    await engine.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [orgId, 'o', 'developer', now]);
    const keyId = randomUUID();
    await engine.run('INSERT INTO api_keys (id, org_id, name, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)', [keyId, orgId, null, randomUUID(), 'sk_', now]);
    const row = await store.create(engine, { id: randomUUID(), key_id: keyId, org_id: orgId, title: 't', team_slug: null, snapshot: state.snapshot });
    for (let i = 0; i < state.updates.length; i += 100) await store.appendUpdates(engine, row.seq, state.updates.slice(i, i + 100));
    return { id: row.id, seq: row.seq };
  }

  const load = (j: { id: string; seq: number }, sliced: boolean) => LiveJournal.load(j.id, j.seq, store, committer, LIMITS, hooks(), sliced ? loader : undefined);

  it.each([
    ['text-heavy', 'with its log', 90, 20_000],
    ['block-heavy', 'with its log', 1_800, 300],
    ['text-heavy', 'compacted', 90, 20_000],
    ['block-heavy', 'compacted', 1_800, 300],
  ])('%s, three clients with deletions, %s: the same document as a load in one piece', async (_kind, form, blocks, blockBytes) => {
    const written = history(blocks, blockBytes);
    expect(written.updates.length).toBeGreaterThan(3);
    // Compacted: the whole history as one snapshot (what the worker's merge gives too).
    const state = form === 'compacted' ? { snapshot: Y.mergeUpdates([written.snapshot, ...written.updates]), updates: [] } : written;
    const j = await stored(state);
    // The plan really cuts it: many chunks.
    const scanned: { index?: StateIndex } = {};
    [...scanState(Y.mergeUpdates([written.snapshot, ...written.updates]), scanned)];
    const ordered: { order?: Int32Array } = {};
    [...causalOrder(scanned.index!, ordered)];
    let count = 0;
    for (const _ of chunks(scanned.index!, ordered.order!)) count++;
    expect(count).toBeGreaterThan(3);

    const direct = (await load(j, false))!;
    const sliced = (await load(j, true))!;
    expect(fallbacks).toEqual([]);
    expect(sliced.revision).toBe(direct.revision);
    expect(sliced.doc.store.pendingStructs).toBeNull();
    expect(Y.encodeStateVector(sliced.doc)).toEqual(Y.encodeStateVector(direct.doc));
    expect(sliced.fragment.toJSON()).toBe(direct.fragment.toJSON());
    // Deleted content included: the whole state, deletions and all, encodes to the same bytes.
    expect(Buffer.from(Y.encodeStateAsUpdate(sliced.doc)).equals(Buffer.from(Y.encodeStateAsUpdate(direct.doc)))).toBe(true);
    expect(Y.equalDeleteSets(Y.createDeleteSetFromStructStore(sliced.doc.store), Y.createDeleteSetFromStructStore(direct.doc.store))).toBe(true);
    // What joiners get before anything changes: the same document.
    const joiner = new Y.Doc();
    Y.applyUpdate(joiner, await sliced.settledTask(() => sliced.stateFor(new Uint8Array([0])).update));
    expect(joiner.getXmlFragment(FRAGMENT_NAME).toJSON()).toBe(direct.fragment.toJSON());
    expect(Y.encodeStateVector(joiner)).toEqual(Y.encodeStateVector(direct.doc));
    // The index the load built finds the blocks the one-piece load has.
    for (const el of direct.fragment.toArray().slice(0, 20) as Y.XmlElement[]) {
      const id = el.getAttribute('id');
      if (!id) continue;
      expect(sliced.blocks.find(id)?.toString()).toBe(direct.blocks.find(id)!.toString());
    }
    // The load's block-id audit finds what the one-piece audit finds (one block without id, one duplicate).
    let n = 0;
    const ids = () => `fresh-${n++}`;
    expect(sliced.assignBlockIds(ids)).toBe(2);
    expect(direct.assignBlockIds(ids)).toBe(2);
    direct.close('idle');
    sliced.close('idle');
  }, 120_000);

  it('a large block-heavy journal loads without holding the event loop for more than a slice', async () => {
    const state = history(36_000, 200);
    const j = await stored(state);
    const probe = () => {
      let last = performance.now();
      let longest = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 1);
      return () => {
        clearInterval(timer);
        return Math.max(longest, performance.now() - last);
      };
    };
    // Warm the worker (its first task loads Yjs) so that both loads start alike.
    await load(await stored(history(90, 100)), true).then((l) => l!.close('idle'));
    await new Promise((r) => setTimeout(r, 50));

    let stop = probe();
    let t0 = performance.now();
    const direct = (await load(j, false))!;
    const directStall = stop();
    const directMs = performance.now() - t0;
    direct.close('idle');
    await new Promise((r) => setTimeout(r, 50));

    stop = probe();
    t0 = performance.now();
    const sliced = (await load(j, true))!;
    const slicedStall = stop();
    const slicedMs = performance.now() - t0;
    expect(fallbacks).toEqual([]);
    expect(sliced.fragment.length).toBe(direct.fragment.length);
    sliced.close('idle');
    console.log(`block-heavy ${(state.snapshot.byteLength / 1e6).toFixed(1)} MB + ${state.updates.length} updates: one piece ${directMs.toFixed(0)} ms, longest stall ${directStall.toFixed(0)} ms; sliced ${slicedMs.toFixed(0)} ms, longest stall ${slicedStall.toFixed(0)} ms`);
    // The one-piece load is one stall; the sliced one holds the loop a small part of that, and of its own time.
    expect(directStall).toBeGreaterThan(0.5 * directMs);
    expect(slicedStall).toBeLessThan(directStall / 4);
    expect(slicedStall).toBeLessThan(slicedMs / 8);
  }, 180_000);
});
