/**
 * server/realtime/awareness-guard.ts and rate-limit.ts on their own: which entries of an awareness
 * message are applied, refused or contested, and the token buckets.
 */
import * as awarenessProtocol from 'y-protocols/awareness';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  decodeAwarenessUpdate,
  encodeAwarenessEntries,
  planAwareness,
  type AwarenessEntry,
  type ConnectionAwarenessView,
  type HolderView,
  type RoomAwarenessView,
} from '../../server/realtime/awareness-guard.ts';
import { MessageRateLimiter, TokenBucket } from '../../server/realtime/rate-limit.ts';

const text = new TextEncoder();
const entry = (clientId: number, clock: number, state: unknown): AwarenessEntry => ({ clientId, clock, state: text.encode(JSON.stringify(state)) });
const limits = { maxClients: 4, maxStateBytes: 16 * 1024, maxLifetimeClients: 64 };

/** A room where `others` maps ids to [clock, holder]; ids not listed are unknown. */
function room(others: Record<number, [number, HolderView | undefined]> = {}): RoomAwarenessView {
  return {
    clock: (id) => others[id]?.[0],
    hasState: (id) => others[id]?.[1] !== undefined,
    holder: (id) => others[id]?.[1],
  };
}
const peer = (own = true, sameKey = true): HolderView => ({ self: false, own, sameKey });
function conn(over: Partial<ConnectionAwarenessView> = {}): ConnectionAwarenessView {
  return { opening: false, own: new Set(), held: new Set(), claimed: new Set(), ...over };
}

describe('awareness wire format', () => {
  it('decodes what y-protocols encodes, and encodes it back byte for byte', () => {
    const a = new awarenessProtocol.Awareness(new Y.Doc());
    a.setLocalState({ user: { name: 'Ada', color: '#f00' }, cursor: null });
    const bytes = awarenessProtocol.encodeAwarenessUpdate(a, [a.clientID]);
    const entries = decodeAwarenessUpdate(bytes);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.clientId).toBe(a.clientID);
    expect(JSON.parse(new TextDecoder().decode(entries[0]!.state))).toEqual({ user: { name: 'Ada', color: '#f00' }, cursor: null });
    expect(encodeAwarenessEntries(entries)).toEqual(bytes);
    a.destroy();
  });

  it('throws on a truncated message', () => {
    expect(() => decodeAwarenessUpdate(Uint8Array.from([3, 1, 1]))).toThrow();
  });
});

describe('planAwareness', () => {
  it("applies a connection's opening announcement of its own id", () => {
    const plan = planAwareness([entry(7, 1, { user: 'a' })], room(), conn({ opening: true }), limits);
    expect(plan.refuse).toBeUndefined();
    expect(plan.announced).toEqual({ ids: [7], opening: true });
    expect(plan.apply.map((e) => e.clientId)).toEqual([7]);
    expect(plan.claims).toEqual([7]);
  });

  it('refuses an announcement of more ids than allowed, and a state over the size limit', () => {
    const many = [1, 2, 3, 4, 5].map((id) => entry(id, 1, {}));
    expect(planAwareness(many, room(), conn({ opening: true }), limits).refuse).toMatchObject({ code: 'forbidden' });
    const big = entry(1, 1, { junk: 'x'.repeat(17 * 1024) });
    expect(planAwareness([big], room(), conn({ opening: true }), limits).refuse).toMatchObject({ code: 'too-large' });
  });

  it('skips echoes and relays of states other connections hold', () => {
    const r = room({ 10: [5, peer()], 11: [2, peer(false)] });
    const c = conn({ own: new Set([1]), held: new Set([1]), claimed: new Set([1]) });
    // An echo (same clock) and a newer relay of someone else's state: neither applied nor refused.
    const plan = planAwareness([entry(10, 5, { x: 1 }), entry(10, 6, { x: 2 }), entry(11, 3, {})], r, c, limits);
    expect(plan).toMatchObject({ apply: [], contests: [], claims: [] });
    expect(plan.refuse).toBeUndefined();
  });

  it("takes its own id over from a connection that relayed it; contests one the holder announced too", () => {
    const c = conn({ opening: true });
    const relayed = planAwareness([entry(10, 3, {})], room({ 10: [2, peer(false)] }), c, limits);
    expect(relayed.apply.map((e) => e.clientId)).toEqual([10]);
    const announced = planAwareness([entry(10, 3, {})], room({ 10: [2, peer(true)] }), c, limits);
    expect(announced.apply).toEqual([]);
    expect(announced.contests.map((e) => e.clientId)).toEqual([10]);
    expect(planAwareness([entry(10, 3, {})], room({ 10: [2, peer(true, false)] }), c, limits).refuse).toMatchObject({ code: 'forbidden' });
  });

  it('holds at most maxClients ids at a time and maxLifetimeClients over its life', () => {
    const held = new Set([1, 2, 3, 4]);
    const c = conn({ own: new Set([1]), held, claimed: new Set(held) });
    expect(planAwareness([entry(5, 1, {})], room(), c, limits).refuse).toMatchObject({ code: 'forbidden' });
    // Releasing one first makes room (in the same message).
    const swap = planAwareness([entry(4, 9, null), entry(5, 1, {})], room({ 4: [8, { self: true, own: false, sameKey: true }] }), c, limits);
    expect(swap.refuse).toBeUndefined();
    expect(swap.apply.map((e) => e.clientId)).toEqual([4, 5]);
    const claimed = new Set(Array.from({ length: 64 }, (_, i) => 100 + i));
    expect(planAwareness([entry(5, 1, {})], room(), conn({ own: new Set([1]), claimed }), limits).refuse).toMatchObject({ code: 'forbidden' });
  });

  it('applies one entry per id, the last that changes anything; ignores removals of states nobody holds', () => {
    const plan = planAwareness([entry(7, 1, { a: 1 }), entry(7, 2, { a: 2 }), entry(7, 2, { a: 3 }), entry(9, 4, null)], room(), conn({ opening: true }), limits);
    expect(plan.apply).toHaveLength(1);
    expect(JSON.parse(new TextDecoder().decode(plan.apply[0]!.state))).toEqual({ a: 2 });
  });

  it('without an opening announcement, the first id it claims becomes its own', () => {
    const plan = planAwareness([entry(8, 1, {})], room(), conn(), limits);
    expect(plan.announced).toEqual({ ids: [8], opening: false });
  });
});

describe('token buckets', () => {
  it('admits a burst, then the sustained rate, and never limits a rate of 0', () => {
    const b = new TokenBucket(10, 5, 0);
    for (let i = 0; i < 5; i++) expect(b.take(1, 0)).toBe(true);
    expect(b.take(1, 0)).toBe(false);
    expect(b.take(1, 100)).toBe(true); // 0.1 s at 10/s
    expect(b.take(1, 100)).toBe(false);
    const free = new TokenBucket(0, 1, 0);
    for (let i = 0; i < 1000; i++) expect(free.take(1e9, 0)).toBe(true);
  });

  it('says which limit a message breaks', () => {
    const r = new MessageRateLimiter({ maxMessagesPerSecond: 100, messageBurst: 2, maxBytesPerSecond: 1000, byteBurst: 1500 }, 0);
    expect(r.admit(1000, 0)).toBe('ok');
    expect(r.admit(1000, 0)).toBe('bytes');
    expect(r.admit(10, 0)).toBe('messages');
  });
});
