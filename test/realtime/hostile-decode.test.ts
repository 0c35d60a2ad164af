/**
 * Editor updates whose decoding costs far more than their bytes: one update of a million
 * one-character insertions (7 MB), a hundred thousand subdocuments (2 MB). Each is counted from
 * its wire format before anything is built (server/realtime/update-scan.ts) and refused with a
 * close code naming the limit (4413 `update over N items (WS_MAX_UPDATE_ITEMS)`, 4422 for
 * subdocuments); nothing is stored, /healthz stays responsive, the journal keeps serving.
 */
import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import { type Client, type TestServer } from '../helpers/server.ts';
import { expectResponsive, whileProbingHealth } from '../security/health-probe.ts';
import { until } from '../helpers/wait.ts';
import { editorBlocks, editorSuite, synced, typeInto } from './helpers.ts';
import { rawSocket, syncUpdate } from './hostile-helpers.ts';

let server: TestServer;
let alice: Client;
const editor = editorSuite({}, (s, c) => {
  server = s;
  alice = c;
});

/** One client's run of `n` one-character insertions, each after the previous one, in root `t`. */
function tinyInsertions(n: number): Uint8Array {
  const e = encoding.createEncoder();
  const client = 7; // one-byte varUint: ~7 bytes per insertion
  encoding.writeVarUint(e, 1); // clients
  encoding.writeVarUint(e, n); // structs
  encoding.writeVarUint(e, client);
  encoding.writeVarUint(e, 0); // clock
  for (let i = 0; i < n; i++) {
    if (i === 0) {
      encoding.writeUint8(e, 4); // string content, parent follows
      encoding.writeVarUint(e, 1); // parent is a root…
      encoding.writeVarString(e, 't'); // …named t
    } else {
      encoding.writeUint8(e, 4 | 128); // string content after an origin
      encoding.writeVarUint(e, client);
      encoding.writeVarUint(e, i - 1);
    }
    encoding.writeVarString(e, 'a');
  }
  encoding.writeVarUint(e, 0); // delete set: no clients
  return encoding.toUint8Array(e);
}

/** `n` subdocuments, each the value of its own key of root map `m`. */
function subdocuments(n: number): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 1);
  encoding.writeVarUint(e, n);
  encoding.writeVarUint(e, 434343);
  encoding.writeVarUint(e, 0);
  for (let i = 0; i < n; i++) {
    encoding.writeUint8(e, 9 | 32); // subdocument content, keyed
    encoding.writeVarUint(e, 1);
    encoding.writeVarString(e, 'm');
    encoding.writeVarString(e, `k${i}`);
    encoding.writeVarString(e, `guid-${i}`);
    encoding.writeAny(e, {});
  }
  encoding.writeVarUint(e, 0);
  return encoding.toUint8Array(e);
}

async function attack(journalId: string, update: Uint8Array): Promise<{ code: number; reason: string }> {
  const raw = rawSocket(server.url, journalId, alice.key!);
  await raw.opened;
  await raw.send(syncUpdate(update));
  const closed = await raw.waitClosed('refusal', 30_000);
  raw.ws.terminate();
  return closed;
}

describe('editor updates that cost more to decode than their bytes', () => {
  const cases: [string, () => Uint8Array, number, RegExp][] = [
    ['a million one-character insertions (7 MB)', () => tinyInsertions(1_000_000), 4413, /^update over 20000 items \(WS_MAX_UPDATE_ITEMS\)$/],
    ['100,000 subdocuments (2 MB)', () => subdocuments(100_000), 4413, /WS_MAX_UPDATE_ITEMS/],
    ['one subdocument', () => subdocuments(1), 4422, /^update refused: subdocuments are not allowed$/],
  ];
  for (const [what, make, code, reason] of cases) {
    it(`refuses ${what} before decoding it; nothing stored, /healthz responsive`, async () => {
      const id = await alice.importMarkdown('# Kept\n\nThis stays.\n');
      const e = editor(id);
      await synced(e);
      const live = server.svc.ctx.registry.get(id)!;
      const revision = live.revision;
      const update = make();
      const probe = await whileProbingHealth(server.url, () => attack(id, update));
      expect(probe.result.code).toBe(code);
      expect(probe.result.reason).toMatch(reason);
      expectResponsive(probe);
      expect(live.revision).toBe(revision);
      expect(live.doc.share.has('t') || live.doc.share.has('m')).toBe(false);
      // The journal keeps serving its editors.
      const blockId = editorBlocks(e)[1]!.id as string;
      typeInto(e, blockId, 0, 'Still ');
      await until(async () => (await alice.content(id)) === '# Kept\n\nStill This stays.\n', 'edit stored');
      expect(e.closes).toEqual([]);
    });
  }
});
