/**
 * Write amplification of editor traffic (issue 26): what the service writes of a journal's state
 * (update log and compactions' snapshots, JournalStore.written) per byte a real editor socket
 * sent, while the journal grows by pastes of 16 KB. Compaction is due only once the log holds
 * twice the snapshot's bytes (journals/live.ts compactionDue), so the snapshots add at most 1.5
 * times what the updates brought: at most 2.5 bytes written per byte received, whatever the
 * journal's size. (Compacting every COMPACT_AFTER_BYTES, as before, rewrote the growing snapshot:
 * 6 MB sent this way made 2.9 times as much written, and the ratio grows with the size: 9.6 at
 * 24 MB a journal in the bench.)
 * No timing: byte counts only. `npm run bench -- tenants` measures the same on disk.
 */
import { expect, it } from 'vitest';
import * as Y from 'yjs';
import { serverSuite, type Client, type TestServer } from '../helpers/server.ts';
import { rawSocket, syncUpdate } from '../realtime/hostile-helpers.ts';
import { until } from '../helpers/wait.ts';

let server: TestServer;
let c: Client;
serverSuite({ env: { WS_MAX_BYTES_PER_SECOND: '0', WS_MAX_MESSAGES_PER_SECOND: '0' } }, (s, client) => {
  server = s;
  c = client;
});

it('an editor growing a journal to 6 MB makes the service write at most 2.5 bytes per byte it sent', async () => {
  const id = (await c.put('/v1/journals/editor/create', { title: 'pastes' })).body.journal_id;
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment('prosemirror');
  const messages: Uint8Array[] = [];
  for (let i = 0; i < 384; i++) {
    const sv = Y.encodeStateVector(doc);
    const p = new Y.XmlElement('paragraph');
    p.insert(0, [new Y.XmlText(`paste ${i} `.padEnd(16_000, 'lorem ipsum dolor sit amet '))]);
    fragment.push([p]);
    messages.push(syncUpdate(Y.encodeStateAsUpdate(doc, sv)));
  }
  const sent = messages.reduce((n, m) => n + m.byteLength, 0);
  const { store, registry } = { store: server.svc.ctx.journals.store, registry: server.svc.ctx.registry };
  const before = { ...store.written };
  const raw = rawSocket(server.url, id, c.key!);
  await raw.opened;
  for (const m of messages) await raw.send(m);
  // Every paste committed (the server's block-id transactions count revisions too: read the blocks) …
  await until(async () => ((await c.get(`/v1/journals/editor/model/${id}`)).body.model.content.length as number) >= messages.length, 'every paste committed', 60_000);
  await registry.get(id)!.drain();
  raw.ws.close();
  // … and the compactions they made due are done (the counts stop moving).
  let last = -1;
  await until(async () => {
    const now = store.written.snapshots;
    const still = now === last;
    last = now;
    await new Promise((r) => setTimeout(r, 200));
    return still;
  }, 'compactions to settle', 30_000);
  const written = store.written.updates - before.updates + store.written.snapshots - before.snapshots;
  const ratio = written / sent;
  console.log(`sent ${(sent / 1e6).toFixed(1)} MB; the service wrote ${(written / 1e6).toFixed(1)} MB (${ratio.toFixed(2)}x): updates ${(store.written.updates - before.updates) / 1e6} MB, snapshots ${(store.written.snapshots - before.snapshots) / 1e6} MB`);
  expect(store.written.updates - before.updates).toBeGreaterThanOrEqual(sent * 0.95);
  expect(ratio).toBeLessThanOrEqual(2.5);
}, 120_000);
