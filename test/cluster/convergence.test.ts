/**
 * Issue 13, item 3 on three real instances (test/cluster/harness.ts): editors of one journal on
 * different instances converge, with each other and with every instance's REST reads; REST edits
 * and editor updates cross instances; awareness and deletions do too; and the traffic goes
 * through Redis under REDIS_KEY_PREFIX. The instances run without the periodic re-sync from
 * PostgreSQL (CLUSTER_RESYNC_MS=0), so a fan-out kept inside each process fails here outright; the
 * MONITOR checks would catch it with the re-sync on too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Editor } from '../realtime/helpers.ts';
import { blockText, editorBlocks, typeInto, waitFor } from '../realtime/helpers.ts';
import {
  allSynced,
  type Cluster,
  clusterAvailability,
  clusterSuite,
  converged,
  eventually,
  expectNothingLost,
  type Instance,
  RedisMonitor,
  restBlocks,
  restTexts,
  Typist,
} from './harness.ts';

const avail = await clusterAvailability();

describe.skipIf(!!avail.skipReason)('cluster: editors and REST clients on three instances', () => {
  let cluster: Cluster;
  let monitor: RedisMonitor;
  // No periodic re-sync from PostgreSQL: what reaches another instance's editors came through Redis.
  clusterSuite({ redisUrl: avail.redisUrl!, env: { CLUSTER_RESYNC_MS: '0' } }, async (c) => {
    cluster = c;
    monitor = await RedisMonitor.start(avail.redisUrl!, c.prefix);
  });
  afterAll(() => monitor?.close());

  /** A journal of a heading and three paragraphs, imported through instance `on`. */
  const journal = (on: number) => cluster.journal(cluster.instances[on]!, '# Title\n\nalpha\n\nbeta\n\ngamma\n');

  it('editors typing at once on three instances converge, to what GET model returns on each instance', { timeout: 120_000 }, async () => {
    const [A, B, C] = cluster.instances as [Instance, Instance, Instance];
    const { id, ids } = await journal(0);
    const eds = [A, A, B, B, C, C].map((i) => cluster.editor(i, id));
    await allSynced(eds);
    for (const e of eds) expect(editorBlocks(e).map((b) => b.text)).toEqual(['Title', 'alpha', 'beta', 'gamma']);
    const mark = monitor.count;

    // One editor per instance types into a block of its own; the other one of each instance types
    // into the heading, which all three instances thus change concurrently.
    const own = [new Typist(eds[0]!, ids[1]!, 'a'), new Typist(eds[2]!, ids[2]!, 'b'), new Typist(eds[4]!, ids[3]!, 'c')];
    const shared = [new Typist(eds[1]!, ids[0]!, 'ha'), new Typist(eds[3]!, ids[0]!, 'hb'), new Typist(eds[5]!, ids[0]!, 'hc')];
    const all = [...own, ...shared];
    for (const t of all) t.start();
    await eventually(() => all.every((t) => t.n >= 60), 'typing', 60_000);
    await Promise.all(all.map((t) => t.stop()));

    await converged(eds, 'the six editors to converge');
    // Every keystroke is there, once, in order.
    const final = eds[0]!;
    expectNothingLost(final, own, ['alpha', 'beta', 'gamma']);
    const heading = blockText(final, ids[0]!)!;
    expect(heading.endsWith('Title')).toBe(true);
    for (const t of shared) for (let i = 0; i < t.n; i++) expect(heading.split(' ')).toContain(t.token(i).trim());
    expect(heading.length).toBe('Title'.length + shared.reduce((n, t) => n + Array.from({ length: t.n }, (_, i) => t.token(i).length).reduce((a, b) => a + b, 0), 0));

    // Every instance's REST read is the editors' document (they have all seen it: it is committed).
    const expected = editorBlocks(final);
    const contents = new Set<string>();
    for (const i of cluster.instances) {
      expect(await restBlocks(i.client, id), `GET model on ${i.name}`).toEqual(expected);
      contents.add(await i.client.content(id));
    }
    expect(contents.size, 'GET content equal on every instance').toBe(1);

    // The updates crossed instances through Redis, under the cluster's prefix, from each instance.
    const traffic = monitor.since(mark);
    expect(traffic.length, `Redis commands under ${cluster.prefix}`).toBeGreaterThan(0);
    expect(new Set(traffic.map((t) => t.source)).size, 'Redis connections that sent them (one instance at least each)').toBeGreaterThanOrEqual(3);
  });

  it('a REST edit on A (sync_realtime_state: true) reaches the editors on B and C; a quiet one is read at once on B and C', { timeout: 60_000 }, async () => {
    const [A, B, C] = cluster.instances as [Instance, Instance, Instance];
    const { id, ids } = await journal(1);
    const eds = [cluster.editor(B, id), cluster.editor(B, id), cluster.editor(C, id)];
    await allSynced(eds);
    const mark = monitor.count;

    const r = await A.client.edit(id, [{ type: 'update_node', nodeId: ids[1], nodeType: 'paragraph', params: [{ content: 'From A' }] }], { sync_realtime_state: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.success).toBe(true);
    await waitFor(() => eds.every((e) => blockText(e, ids[1]!) === 'From A'), 'the REST edit of A on the editors of B and C', 20_000);
    expect(monitor.since(mark).length, `Redis commands under ${cluster.prefix} for the edit`).toBeGreaterThan(0);

    // A new block made on C reaches B's editors, and an editor that opens on A.
    const made = await C.client.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'Made on C' }] }]);
    expect(made.status).toBe(200);
    await waitFor(() => eds.every((e) => editorBlocks(e).some((b) => b.text === 'Made on C')), 'the block made on C on every editor', 20_000);
    const onA = cluster.editor(A, id);
    await allSynced([onA]);
    await converged([...eds, onA]);

    // sync_realtime_state false: committed, so every instance's REST read shows it at once.
    const quiet = await A.client.edit(id, [{ type: 'update_node', nodeId: ids[2], nodeType: 'paragraph', params: [{ content: 'Quiet on A' }] }], { sync_realtime_state: false });
    expect(quiet.status).toBe(200);
    for (const i of [B, C, A]) expect((await restTexts(i.client, id))[2], `GET model on ${i.name} right after the quiet edit`).toBe('Quiet on A');
    // ... and, as on one instance, it is not pushed to the editors connected now, wherever they are.
    const marker = await C.client.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'After the quiet edit' }] }]);
    expect(marker.status).toBe(200);
    await waitFor(() => [...eds, onA].every((e) => editorBlocks(e).some((b) => b.text === 'After the quiet edit')), 'a later broadcast edit everywhere', 20_000);
    for (const e of [...eds, onA]) expect(blockText(e, ids[2]!), 'the quiet edit on a connected editor').not.toBe('Quiet on A');
  });

  it("an editor's update on B reaches C, and every instance's REST read as soon as B's other editor sees it", { timeout: 90_000 }, async () => {
    const [A, B, C] = cluster.instances as [Instance, Instance, Instance];
    const { id, ids } = await journal(2);
    const b1 = cluster.editor(B, id);
    const b2 = cluster.editor(B, id);
    const c1 = cluster.editor(C, id);
    const a1 = cluster.editor(A, id);
    await allSynced([b1, b2, c1, a1]);

    const stale: string[] = [];
    let text = 'alpha';
    for (let k = 0; k < 10; k++) {
      const token = `k${k} `;
      typeInto(b1, ids[1]!, 0, token);
      text = token + text;
      await waitFor(() => blockText(b2, ids[1]!) === text, `B's other editor to see ${token}`, 20_000);
      // Broadcast means committed: a REST read on any instance, now, must show it.
      for (const i of [A, C, B]) {
        const got = (await restTexts(i.client, id))[1];
        if (got !== text) stale.push(`round ${k}: GET model on ${i.name} returned ${JSON.stringify(got)}, expected ${JSON.stringify(text)}`);
      }
      const content = await cluster.instances[k % 3]!.client.content(id);
      if (!content.includes(`${text}\n`)) stale.push(`round ${k}: GET content on ${cluster.instances[k % 3]!.name} lacks ${JSON.stringify(text)}`);
      await waitFor(() => blockText(c1, ids[1]!) === text && blockText(a1, ids[1]!) === text, `editors on C and A to see ${token}`, 20_000);
    }
    expect(stale).toEqual([]);
    // And without a REST read on the way (reads catch up from the log by themselves): fan-out alone.
    typeInto(b1, ids[2]!, 0, 'last ');
    await waitFor(() => [b2, c1, a1].every((e) => blockText(e, ids[2]!) === 'last beta'), 'an update typed on B on the editors of C and A', 20_000);
    await converged([b1, b2, c1, a1]);
  });

  it('awareness set on A is seen by the editors on B and C, and goes away everywhere when its editor leaves', { timeout: 60_000 }, async () => {
    const [A, B, C] = cluster.instances as [Instance, Instance, Instance];
    const { id } = await journal(0);
    const a = cluster.editor(A, id);
    const b = cluster.editor(B, id);
    const c = cluster.editor(C, id);
    await allSynced([a, b, c]);
    const user = (e: Editor, of: Editor) => e.provider.awareness.getStates().get(of.doc.clientID)?.user as { name?: string; cursor?: number } | undefined;

    a.provider.awareness.setLocalStateField('user', { name: 'Ada', cursor: 1 });
    await waitFor(() => user(b, a)?.name === 'Ada' && user(c, a)?.name === 'Ada', "Ada's state on B and C", 20_000);
    // Changes follow (a cursor that moves), and states go every way.
    a.provider.awareness.setLocalStateField('user', { name: 'Ada', cursor: 7 });
    c.provider.awareness.setLocalStateField('user', { name: 'Cy', cursor: 2 });
    await waitFor(() => user(b, a)?.cursor === 7 && user(c, a)?.cursor === 7, "Ada's moved cursor on B and C", 20_000);
    await waitFor(() => user(a, c)?.name === 'Cy' && user(b, c)?.name === 'Cy', "Cy's state on A and B", 20_000);

    // Ada leaves: her state is removed on B and C (well before y-protocols' 30 s expiry).
    a.provider.disconnect();
    await waitFor(() => !b.provider.awareness.getStates().has(a.doc.clientID) && !c.provider.awareness.getStates().has(a.doc.clientID), "Ada's state removed on B and C", 15_000);
    expect(user(b, c)?.name).toBe('Cy');
  });

  it('deleting a journal on A closes its editors on B and C (4404), and B and C read it as gone', { timeout: 60_000 }, async () => {
    const [A, B, C] = cluster.instances as [Instance, Instance, Instance];
    const { id } = await journal(1);
    const eds = [cluster.editor(A, id), cluster.editor(B, id), cluster.editor(C, id)];
    await allSynced(eds);
    const r = await A.client.del(`/v1/journals/editor/delete/${id}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await waitFor(() => eds.every((e) => e.closes.some((x) => x.code === 4404)), 'every editor closed with 4404', 20_000);
    for (const i of [B, C]) {
      const m = await i.client.get(`/v1/journals/editor/model/${id}`);
      expect(m.status, `GET model on ${i.name} after the delete`).toBe(404);
      const e = await i.client.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'late' }] }]);
      expect(e.status, `edit on ${i.name} after the delete`).toBe(404);
    }
  });
});
