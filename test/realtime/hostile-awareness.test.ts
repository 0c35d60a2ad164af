/**
 * Awareness limits (WS_MAX_AWARENESS_CLIENTS = 4, WS_MAX_AWARENESS_STATE_BYTES = 16 KiB): a
 * connection sets only its own client ids, a few at most, never a live editor's; junk is refused
 * (4403, 4413) before it reaches the room, so editors joining later never receive it. Stock
 * clients, which echo and relay other editors' states, are never refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type Client, type TestServer } from '../helpers/server.ts';
import { type Editor, editorSuite, synced, waitFor } from './helpers.ts';
import { awarenessIdsReceived, awarenessMessage, rawSocket, type RawSocket } from './hostile-helpers.ts';

let server: TestServer;
let alice: Client;
const sockets: RawSocket[] = [];
const editor = editorSuite({}, (s, c) => {
  server = s;
  alice = c;
});
afterAll(() => {
  for (const s of sockets) s.ws.terminate();
});

async function raw(id: string, opts: { autoPong?: boolean } = {}): Promise<RawSocket> {
  const s = rawSocket(server.url, id, alice.key!, opts);
  sockets.push(s);
  await s.opened;
  return s;
}

const victimNameSeenBy = (e: Editor, victimId: number) => e.provider.awareness.getStates().get(victimId)?.user?.name;

/** A journal with one stock editor whose awareness says who it is. */
async function journalWithVictim(): Promise<{ id: string; victim: Editor; victimId: number }> {
  const id = await alice.importMarkdown('Presence\n');
  const victim = editor(id);
  await synced(victim);
  victim.provider.awareness.setLocalStateField('user', { name: 'Victim' });
  const victimId = victim.doc.clientID;
  // Once another editor has seen it, the server has it; that editor then leaves.
  const observer = editor(id);
  await waitFor(() => victimNameSeenBy(observer, victimId) === 'Victim', 'victim state on the server');
  const observerId = observer.doc.clientID;
  observer.destroy();
  await waitFor(() => !victim.provider.awareness.getStates().has(observerId), 'observer gone');
  return { id, victim, victimId };
}

/** The awareness client ids a newly connected socket is told about. */
async function idsSeenByNewcomer(id: string): Promise<Set<number>> {
  const n = await raw(id);
  await n.roundTrip();
  const ids = awarenessIdsReceived(n);
  n.ws.close();
  return ids;
}


describe('awareness limits', () => {
  it('refuses a socket announcing 2,000 client ids (4403); editors joining later never hear of them', async () => {
    const { id, victim, victimId } = await journalWithVictim();
    const s = await raw(id);
    await s.send(awarenessMessage(Array.from({ length: 2000 }, (_, i) => ({ clientId: 1 + i, clock: 1, state: { junk: 'x'.repeat(900) } }))));
    const closed = await s.waitClosed();
    expect(closed).toEqual({ code: 4403, reason: 'more than 4 awareness client ids on one connection' });
    expect([...(await idsSeenByNewcomer(id))]).toEqual([victimId]);
    expect(victim.closes).toEqual([]);
  });

  it('refuses a fifth client id sent one message at a time, and removes the four it held', async () => {
    const { id, victimId } = await journalWithVictim();
    const s = await raw(id);
    for (let i = 1; i <= 4; i++) await s.send(awarenessMessage([{ clientId: 100 + i, clock: 1, state: { n: i } }]));
    await s.roundTrip();
    expect([...(await idsSeenByNewcomer(id))].sort()).toEqual([101, 102, 103, 104, victimId].sort());
    await s.send(awarenessMessage([{ clientId: 105, clock: 1, state: { n: 5 } }]));
    expect((await s.waitClosed()).code).toBe(4403);
    const after = await idsSeenByNewcomer(id);
    expect([...after]).toEqual([victimId]);
  });

  it('refuses a state over 16 KiB (4413) and never passes it on', async () => {
    const { id, victimId } = await journalWithVictim();
    const s = await raw(id);
    await s.send(awarenessMessage([{ clientId: 777, clock: 1, state: { avatar: 'x'.repeat(100 * 1024) } }]));
    expect(await s.waitClosed()).toEqual({ code: 4413, reason: 'awareness state over 16384 bytes' });
    expect([...(await idsSeenByNewcomer(id))]).toEqual([victimId]);
  });

  it("refuses a socket announcing a live editor's client id (4403); the editor's state stays its own", async () => {
    const { id, victim, victimId } = await journalWithVictim();
    const watcher = editor(id);
    await synced(watcher);
    await waitFor(() => victimNameSeenBy(watcher, victimId) === 'Victim', 'watcher sees the victim');
    const clock = victim.provider.awareness.meta.get(victimId)!.clock;
    const s = await raw(id);
    await s.send(awarenessMessage([{ clientId: victimId, clock: clock + 5, state: { user: { name: 'Mallory' } } }]));
    expect(await s.waitClosed()).toEqual({ code: 4403, reason: `awareness client id ${victimId} belongs to another editor` });
    const late = editor(id);
    await synced(late);
    await waitFor(() => victimNameSeenBy(late, victimId) === 'Victim', 'a newcomer sees the real state');
    expect(victimNameSeenBy(watcher, victimId)).toBe('Victim');
    for (const e of [victim, watcher, late]) expect(e.closes).toEqual([]);
  });

  it("ignores, without closing, a relay of another editor's state (as browser tabs relay each other's)", async () => {
    const { id, victim, victimId } = await journalWithVictim();
    const s = await raw(id);
    await s.send(awarenessMessage([{ clientId: 555, clock: 1, state: { user: { name: 'Tab' } } }]));
    const clock = victim.provider.awareness.meta.get(victimId)!.clock;
    await s.send(awarenessMessage([{ clientId: victimId, clock: clock + 1, state: { user: { name: 'Relayed' } } }]));
    await s.roundTrip();
    expect(s.closed).toBeUndefined();
    const late = editor(id);
    await synced(late);
    await waitFor(() => victimNameSeenBy(late, victimId) === 'Victim' && late.provider.awareness.getStates().get(555)?.user?.name === 'Tab', 'states');
    expect(victim.closes).toEqual([]);
  });

  it('lets a client that reconnected take its id back from its old socket once that one fails a ping', async () => {
    const id = await alice.importMarkdown('Reconnect\n');
    const old = await raw(id, { autoPong: false }); // a dead peer: never answers pings
    await old.send(awarenessMessage([{ clientId: 4242, clock: 3, state: { user: { name: 'before' } } }]));
    await old.roundTrip();
    const fresh = await raw(id);
    await fresh.send(awarenessMessage([{ clientId: 4242, clock: 4, state: { user: { name: 'after' } } }]));
    await old.waitClosed('old socket dropped', 15_000);
    const late = editor(id);
    await synced(late);
    await waitFor(() => late.provider.awareness.getStates().get(4242)?.user?.name === 'after', 'the reconnected state');
    expect(fresh.closed).toBeUndefined();
  });
});
