/**
 * One tenant against the others (issue 26): write amplification of editor traffic, the bytes the
 * server process writes to storage (/proc/self/io `write_bytes`: SQLite's database, its WAL and
 * the checkpoints, every thread of this process) per byte its editors sent. Editors are raw
 * sockets speaking y-protocols in this process (they write nothing to disk), each appending
 * paragraphs of 16 KB to its own journal, as pastes would; the server runs in this process with
 * its production defaults, the per-connection byte rate and the organization's quotas lifted so
 * that the editors send as fast as the server takes. Measured until every update is committed
 * and the compactions it made due have run (not the shutdown's compaction).
 *
 * Before: compaction every 1 MiB of log rewrote the whole snapshot, so a journal of S bytes
 * written in updates cost S² / 2 MiB of snapshots: 420 MB sent by 10 editors made 4.2 GB of
 * writes (10x).
 */
import fs from 'node:fs';
import * as Y from 'yjs';
import { startTestServer } from '../test/helpers/server.ts';
import { rawSocket, syncUpdate } from '../test/realtime/hostile-helpers.ts';

function writtenBytes(): number {
  const io = fs.readFileSync('/proc/self/io', 'utf8');
  return Number(/write_bytes:\s+(\d+)/.exec(io)?.[1] ?? 0);
}

/** Paragraph updates of `chars` characters each, `count` of them, from one document. */
function* pasteUpdates(count: number, chars: number): Generator<Uint8Array> {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment('prosemirror');
  for (let i = 0; i < count; i++) {
    const sv = Y.encodeStateVector(doc);
    const p = new Y.XmlElement('paragraph');
    p.insert(0, [new Y.XmlText(`paste ${i} `.padEnd(chars, 'lorem ipsum dolor sit amet '))]);
    fragment.push([p]);
    yield syncUpdate(Y.encodeStateAsUpdate(doc, sv));
  }
}

export async function benchTenants(opts: { journals?: number; mbPerJournal?: number } = {}): Promise<Record<string, number>> {
  const journals = opts.journals ?? 4;
  const mbPerJournal = opts.mbPerJournal ?? 24;
  const big = String(2 ** 40);
  const server = await startTestServer({
    env: { WS_MAX_BYTES_PER_SECOND: '0', WS_MAX_MESSAGES_PER_SECOND: '0', ORG_REALTIME_BYTES_PER_MINUTE: `${big},${big},${big}`, ORG_STORED_BYTES: `${big},${big},${big}` },
  });
  const out: Record<string, number> = {};
  try {
    const c = await server.newClient();
    const ids: string[] = [];
    for (let i = 0; i < journals; i++) ids.push((await c.put('/v1/journals/editor/create', { title: `paste ${i}` })).body.journal_id);
    const perJournal = Math.round((mbPerJournal * 1024 * 1024) / 16_384);
    const messages = ids.map(() => [...pasteUpdates(perJournal, 16_000)]);
    const sent = messages.flat().reduce((n, m) => n + m.byteLength, 0);
    const registry = server.svc.ctx.registry;
    const before = writtenBytes();
    const storeBefore = { ...server.svc.ctx.journals.store.written };
    const started = performance.now();
    await Promise.all(
      ids.map(async (id, i) => {
        const raw = rawSocket(server.url, id, c.key!);
        await raw.opened;
        for (const m of messages[i]!) {
          if (raw.closed) throw new Error(`editor closed: ${raw.closed.code} ${raw.closed.reason}`);
          await raw.send(m);
        }
        // Every update committed (the journal's revision counts them) …
        for (;;) {
          const live = registry.get(ids[i]!);
          if (live && live.revision >= messages[i]!.length) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        raw.ws.close();
      }),
    );
    // … and the compactions they made due run (the registry's queue settles).
    for (const id of ids) await registry.get(id)?.drain();
    await new Promise((r) => setTimeout(r, 500));
    const written = writtenBytes() - before;
    const store = server.svc.ctx.journals.store.written;
    const service = store.updates - storeBefore.updates + store.snapshots - storeBefore.snapshots;
    const seconds = (performance.now() - started) / 1000;
    out['editor bytes sent, MB'] = Math.round(sent / 1e6);
    out['bytes written to storage, MB'] = Math.round(written / 1e6);
    out['received MB/s'] = Number((sent / 1e6 / seconds).toFixed(1));
    out["journal state the service wrote (update logs + compactions' snapshots) per byte received (goal <= 2.5)"] = Number((service / sent).toFixed(2));
    out['write amplification: bytes the process wrote to disk (database, WAL, checkpoints) per byte received (goal <= 6)'] = Number((written / sent).toFixed(2));
  } finally {
    await server.close();
  }
  return out;
}
