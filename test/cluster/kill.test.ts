/**
 * Issue 13, items 4 and 7: kill -9 of one of three instances while REST edits and editor typing
 * flow through it. Afterwards nothing acknowledged (REST 200) or shown (an update another editor
 * had received) is missing — checked on the survivors and on a witness instance that knows only
 * what PostgreSQL holds — and the killed instance's editors reconnect to the others and converge.
 */
import { describe, expect, it } from 'vitest';
import { blockText, editorBlocks } from '../realtime/helpers.ts';
import {
  allSynced,
  type Cluster,
  clusterAvailability,
  clusterSuite,
  converged,
  describeAttempts,
  eventually,
  expectNothingLost,
  type Instance,
  missingFrom,
  restBlocks,
  restShows,
  restTexts,
  restWriter,
  stateVector,
  Typist,
} from './harness.ts';

const avail = await clusterAvailability();

describe.skipIf(!!avail.skipReason)('cluster: kill -9 of one instance', () => {
  let cluster: Cluster;
  clusterSuite({ redisUrl: avail.redisUrl! }, (c) => {
    cluster = c;
  });

  it('loses no acknowledged edit and no broadcast update; its editors reconnect elsewhere and converge', { timeout: 240_000 }, async () => {
    const [A, B, C] = cluster.instances as [Instance, Instance, Instance];
    const victim = A;
    const { id, ids } = await cluster.journal(B, '# Log\n\nalpha\n\nbeta\n\ngamma\n');

    // Two editors on the victim, one on each survivor.
    const a1 = cluster.editor(victim, id);
    const a2 = cluster.editor(victim, id);
    const b1 = cluster.editor(B, id);
    const c1 = cluster.editor(C, id);
    await allSynced([a1, a2, b1, c1]);

    const ta1 = new Typist(a1, ids[1]!, 'a').start();
    const ta2 = new Typist(a2, ids[2]!, 'x').start();
    const tb1 = new Typist(b1, ids[3]!, 'b').start();
    let writing = true;
    const stop = () => !writing;
    // REST writers: three through the victim (until it stops answering), one through B.
    const onVictim = [0, 1, 2].map((w) => restWriter(victim, id, `rest-A${w}`, { stop, untilGone: true, sync: (i) => i % 2 === 0 }));
    const onB = restWriter(B, id, 'rest-B', { stop });
    const writers = [...onVictim, onB];

    // Everything flowing, across instances too, before the kill.
    await eventually(
      () =>
        onVictim.reduce((n, w) => n + w.acked().length, 0) >= 30 &&
        ta1.n >= 100 &&
        blockText(c1, ids[1]!)?.startsWith('a') &&
        blockText(b1, ids[2]!)?.startsWith('x') &&
        blockText(a1, ids[3]!)?.startsWith('b'),
      'REST edits and typing under way, across instances',
      60_000,
    );
    await victim.kill('SIGKILL');
    const killedAt = Date.now();

    // What each editor had received by then was broadcast: it must have been committed.
    const seen = [a1, a2, b1, c1].map((e, i) => ({ name: ['a1', 'a2', 'b1', 'c1'][i]!, sv: stateVector(e), own: e.doc.clientID }));
    await Promise.all([ta1, ta2, tb1].map((t) => t.stop()));
    writing = false;
    await Promise.all(writers.map((w) => w.done));
    const acked = writers.flatMap((w) => w.acked());
    const ackedOnVictim = onVictim.flatMap((w) => w.acked());
    expect(ackedOnVictim.length).toBeGreaterThanOrEqual(30);
    // The victim answered 200 (or 503, busy) until it went away; never a 500.
    const odd = writers.flatMap((w) => w.attempts).filter((a) => a.status !== 200 && a.status !== 503 && !(a.status === 0 && a.instance === victim.name));
    expect(describeAttempts(odd, killedAt), 'answers other than 200 or 503').toEqual([]);

    // A witness instance knows only what PostgreSQL holds: every acknowledged edit, every update seen.
    const witness = await cluster.witness();
    const committed = await restTexts(witness.client, id);
    expect(acked.filter((t) => !committed.includes(t)), 'acknowledged edits missing from PostgreSQL').toEqual([]);
    const w1 = cluster.editor(witness, id);
    await allSynced([w1]);
    const inStore = stateVector(w1);
    for (const s of seen) expect(missingFrom(inStore, s.sv, s.own), `updates ${s.name} had received, missing from PostgreSQL`).toEqual([]);

    // The survivors serve every acknowledged edit too.
    for (const i of [B, C]) {
      await eventually(async () => {
        const texts = await restTexts(i.client, id);
        const missing = acked.filter((t) => !texts.includes(t));
        if (missing.length) throw new Error(`${missing.length} acknowledged edits missing on ${i.name}, e.g. ${missing.slice(0, 5).join(', ')}`);
        return true;
      }, `every acknowledged edit on ${i.name}`);
    }

    // The victim's editors reconnect to survivors: a1's provider is pointed at B (as a load
    // balancer would route its reconnect), a2 opens a new provider on C with the same document.
    cluster.repoint(a1, B);
    a2.provider.destroy();
    const a2again = cluster.editor(C, id, { doc: a2.doc });
    const everyone = [a1, a2again, b1, c1];
    // Half of the victim's REST edits were quiet (sync_realtime_state false): as on one instance,
    // they reach connected editors at their next sync, not live. The survivors' editors resync.
    for (const [e, inst] of [
      [b1, B],
      [c1, C],
    ] as const) {
      e.provider.disconnect();
      await new Promise((r) => setTimeout(r, 50));
      cluster.repoint(e, inst);
    }
    await allSynced(everyone);
    await converged(everyone, 'the reconnected editors and the survivors to converge', 60_000);
    // Every keystroke, including what a1 and a2 typed after the kill and sent on reconnecting.
    expectNothingLost(b1, [ta1, ta2, tb1], ['alpha', 'beta', 'gamma'], acked);

    // REST reads on the survivors are that document, and so is PostgreSQL (a second witness, loaded afresh).
    const expected = editorBlocks(b1);
    await restShows([B, C], id, expected);
    const witness2 = await cluster.witness();
    expect(await restBlocks(witness2.client, id), 'the document in PostgreSQL').toEqual(expected);
    const w2 = cluster.editor(witness2, id);
    await allSynced([w2]);
    expect(missingFrom(stateVector(w2), stateVector(b1)), 'updates of the converged editors missing from PostgreSQL').toEqual([]);

    // Presence works for the reconnected editor: its awareness reaches the other instances.
    a1.provider.awareness.setLocalStateField('user', { name: 'Back on B' });
    await eventually(() => (c1.provider.awareness.getStates().get(a1.doc.clientID)?.user as { name?: string } | undefined)?.name === 'Back on B', "a1's awareness on C after its reconnect", 20_000);
  });
});
