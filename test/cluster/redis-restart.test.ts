/**
 * Issue 13, items 3 and 7: Redis killed (SIGKILL) and started again on the same port while editors
 * type and REST clients edit on three instances. REST edits keep succeeding (PostgreSQL is the
 * store of record; Redis only carries fan-out), fan-out resumes once Redis is back — every
 * instance publishes again and subscribes again —, instances resync what the outage kept from
 * them, and nothing is lost. The suite runs its own redis-server (test/cluster/harness.ts).
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { blockText, editorBlocks, typeInto } from '../realtime/helpers.ts';
import {
  allSynced,
  appendParagraph,
  Cluster,
  clusterAvailability,
  converged,
  describeAttempts,
  eventually,
  expectNothingLost,
  type Instance,
  missingFrom,
  OwnRedisServer,
  redisClients,
  RedisMonitor,
  restBlocks,
  restShows,
  restTexts,
  restWriter,
  sleep,
  stateVector,
  Typist,
} from './harness.ts';

const avail = await clusterAvailability({ ownRedisServer: true });

/** Connections holding Pub/Sub subscriptions (channels, patterns or shard channels). */
async function subscribers(url: string): Promise<number> {
  return (await redisClients(url)).filter((c) => Number(c.sub ?? 0) + Number(c.psub ?? 0) + Number(c.ssub ?? 0) > 0).length;
}

describe.skipIf(!!avail.skipReason)('cluster: Redis restarted mid-run', () => {
  let redis: OwnRedisServer;
  let cluster: Cluster;
  let monitor: RedisMonitor;

  beforeAll(async () => {
    redis = await OwnRedisServer.start();
    // No periodic re-sync (CLUSTER_RESYNC_MS=0): what the outage kept from an instance must come
    // from the re-sync it does when Redis is back (with the default 1 s re-sync that path would be
    // covered up by the periodic one).
    cluster = await Cluster.start({ redisUrl: redis.url, env: { CLUSTER_RESYNC_MS: '0' } });
    monitor = await RedisMonitor.start(redis.url, cluster.prefix);
  }, 180_000);
  afterAll(async () => {
    monitor?.close();
    await cluster?.stop();
    await redis?.stop();
  });

  it('fan-out resumes after Redis comes back, instances resync, nothing is lost', { timeout: 240_000 }, async () => {
    onTestFailed(() => console.log(cluster.dumpLogs()));
    const [A, B, C] = cluster.instances as [Instance, Instance, Instance];
    const { id, ids } = await cluster.journal(A, '# Notes\n\nalpha\n\nbeta\n\ngamma\n');
    const a1 = cluster.editor(A, id);
    const b1 = cluster.editor(B, id);
    const c1 = cluster.editor(C, id);
    const eds = [a1, b1, c1];
    // A second journal, changed on A only while Redis is away and never after: its editors on B
    // and C can only learn of those changes from the re-sync an instance does when Redis is back.
    const { id: quiet, ids: quietIds } = await cluster.journal(A, '# Quiet\n\nuntouched\n');
    const qa = cluster.editor(A, quiet);
    const qa2 = cluster.editor(A, quiet);
    const qb = cluster.editor(B, quiet);
    const qc = cluster.editor(C, quiet);
    await allSynced([...eds, qa, qa2, qb, qc]);
    // A third one, loaded on B and C by a REST read: changed on A while Redis is away, read on B
    // and C right then, with nothing else of it committed there that could bring the change along.
    const readOnly = await A.client.importMarkdown('# Read\n\nbefore\n');
    for (const i of [B, C]) expect(await restTexts(i.client, readOnly)).toEqual(['Read', 'before']);

    // Fan-out works through this Redis before the restart.
    typeInto(a1, ids[0]!, 0, 'before ');
    await eventually(() => eds.every((e) => blockText(e, ids[0]!) === 'before Notes'), 'fan-out before the restart', 20_000);
    expect(monitor.count, `Redis commands under ${cluster.prefix}`).toBeGreaterThan(0);
    const subscribedBefore = await subscribers(redis.url);

    const typists = [new Typist(a1, ids[1]!, 'a'), new Typist(b1, ids[2]!, 'b'), new Typist(c1, ids[3]!, 'c')].map((t) => t.start());
    let writing = true;
    const stop = () => !writing;
    const writers = [A, B, C].map((i) => restWriter(i, id, `rest-${i.name}`, { stop, pauseMs: 20 }));
    await eventually(() => typists.every((t) => t.n >= 30) && writers.every((w) => w.acked().length >= 5), 'typing and REST edits under way', 60_000);

    // Redis dies without a word, stays away a while, and comes back empty on the same port.
    await redis.kill();
    const downAt = Date.now();
    await sleep(500);
    // While it is away, an edit on each instance (waited for, however slow: Redis stays down meanwhile).
    const probes = await Promise.all(cluster.instances.map((i) => i.client.edit(id, appendParagraph(`while Redis is down, on ${i.name}`))));
    // REST edits never depended on Redis ...
    expect(probes.map((r) => `${r.status} ${r.status === 200 ? '' : JSON.stringify(r.body)}`.trim()), 'edits made while Redis was down').toEqual(['200', '200', '200']);
    // ... nor do reads: every instance's REST read shows those edits at once (from the log).
    for (const i of cluster.instances) {
      const texts = await restTexts(i.client, id);
      expect(cluster.instances.map((j) => `while Redis is down, on ${j.name}`).filter((t) => !texts.includes(t)), `edits missing from GET model on ${i.name} while Redis is down`).toEqual([]);
    }
    const changed = await A.client.edit(readOnly, appendParagraph('changed on A while Redis is down'));
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    for (const i of [B, C]) expect(await restTexts(i.client, readOnly), `GET model on ${i.name} while Redis is down`).toEqual(['Read', 'before', 'changed on A while Redis is down']);
    const quietEdit = await A.client.edit(quiet, [{ type: 'update_node', nodeId: quietIds[1], nodeType: 'paragraph', params: [{ content: 'changed on A while Redis was down' }] }]);
    expect(quietEdit.status, JSON.stringify(quietEdit.body)).toBe(200);
    typeInto(qa, quietIds[0]!, 0, 'typed on A while Redis was down: ');
    // Seen by the other editor on A: committed.
    await eventually(() => blockText(qa2, quietIds[0]!)?.startsWith('typed'), "the typing on A, on A's other editor", 20_000);
    await sleep(Math.max(0, downAt + 2500 - Date.now()));
    expect(redis.running).toBe(false);
    await redis.restart();
    await monitor.reopen();
    const markAfter = monitor.count;
    // The load goes on a while with Redis back.
    await sleep(2500);
    await Promise.all(typists.map((t) => t.stop()));

    // Instances re-sync when Redis is back: the quiet journal's editors on B and C catch up
    // although nothing of it has been published since.
    await converged([qa, qa2, qb, qc], 'the editors of the journal changed only during the outage to converge', 60_000);
    expect(editorBlocks(qb).map((b) => b.text)).toEqual(['typed on A while Redis was down: Quiet', 'changed on A while Redis was down']);

    // Fan-out resumes: an editor's update on A and a REST edit on B reach the other instances' editors...
    typeInto(a1, ids[0]!, 0, 'after ');
    await eventually(() => [b1, c1].every((e) => blockText(e, ids[0]!)?.startsWith('after ')), "a1's update after the restart on B and C", 30_000);
    const marker = await B.client.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'marker from B' }] }]);
    expect(marker.status, JSON.stringify(marker.body)).toBe(200);
    await eventually(() => [a1, c1].every((e) => editorBlocks(e).some((b) => b.text === 'marker from B')), 'the REST edit on B after the restart on A and C', 30_000);
    writing = false;
    await Promise.all(writers.map((w) => w.done));
    // ... through Redis: every instance publishes again (each from its own connection) ...
    await eventually(() => new Set(monitor.since(markAfter).map((m) => m.source)).size >= 3, `commands under ${cluster.prefix} from the three instances after the restart`, 30_000);
    // ... and subscribes again, when it used Pub/Sub subscriptions before.
    if (subscribedBefore > 0) {
      await eventually(async () => (await subscribers(redis.url)) >= subscribedBefore, `${subscribedBefore} subscribed connections again`, 30_000);
    }

    // Every REST edit of the writers succeeded, during the outage too.
    const attempts = writers.flatMap((w) => w.attempts);
    expect(describeAttempts(attempts.filter((a) => a.status !== 200), downAt), 'REST edits that failed').toEqual([]);
    const acked = [...writers.flatMap((w) => w.acked()), ...cluster.instances.map((i) => `while Redis is down, on ${i.name}`)];

    // The editors converge (what the outage kept from them came from the log): every keystroke, every edit.
    await converged(eds, 'the editors of the three instances to converge', 60_000);
    expectNothingLost(a1, typists, ['alpha', 'beta', 'gamma'], acked);

    // REST reads on every instance show the same document.
    const expected = editorBlocks(a1);
    await restShows(cluster.instances, id, expected);
    // And so does PostgreSQL (a witness, loaded afresh, sees no fan-out).
    const witness = await cluster.witness();
    const committed = await restTexts(witness.client, id);
    expect(acked.filter((t) => !committed.includes(t)), 'acknowledged edits missing from PostgreSQL').toEqual([]);
    expect(await restBlocks(witness.client, id)).toEqual(expected);
    const w = cluster.editor(witness, id);
    await allSynced([w]);
    expect(missingFrom(stateVector(w), stateVector(a1)), 'updates of the editors missing from PostgreSQL').toEqual([]);
  });
});
