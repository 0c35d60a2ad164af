/**
 * The server as a child process (test/helpers/child-server.ts): SIGKILL while editors and REST clients
 * write loses nothing that was acknowledged or broadcast; SIGTERM exits 0 with editors closed
 * (1001) and the state compacted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { killChildServers, prepareDataDir, startChildServer, withStore } from '../helpers/child-server.ts';
import { blocks, Client } from '../helpers/server.ts';
import { connectEditor, type Editor, editorBlocks, synced, textOfY, typeInto, waitFor } from './helpers.ts';

const editors: Editor[] = [];

afterEach(() => {
  for (const e of editors.splice(0)) e.destroy();
  killChildServers();
});

function editor(url: string, id: string, key: string): Editor {
  const e = connectEditor(url, id, { key });
  editors.push(e);
  return e;
}

describe('durability', () => {
  it('kill -9 loses nothing that was acknowledged (REST 200) or broadcast (seen by another editor)', { timeout: 60_000 }, async () => {
    const { dataDir, key, orgId } = await prepareDataDir();
    const first = await startChildServer(dataDir);
    const rest = new Client(first.url, key, orgId);
    const id = await rest.importMarkdown('# Log\n\nalpha\n\nbeta\n');
    const ids = blocks(await rest.model(id)).map((b) => b.id);
    const a = editor(first.url, id, key);
    const b = editor(first.url, id, key);
    await Promise.all([a, b].map(synced));

    // Editors type continuously; REST clients create blocks; record every 200.
    let typing = true;
    let n = 0;
    const typer = (async () => {
      while (typing) {
        typeInto(a, ids[1]!, 0, `a${n} `);
        typeInto(b, ids[2]!, 0, `b${n} `);
        n++;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const acked: string[] = [];
    const writers = [0, 1, 2].map(async (w) => {
      for (let i = 0; ; i++) {
        const text = `rest-${w}-${i}`;
        try {
          const r = await rest.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: text }] }], {
            sync_realtime_state: i % 2 === 0,
          });
          if (r.status === 200 && r.body.success) acked.push(text);
        } catch {
          return; // the server is gone
        }
      }
    });
    await waitFor(() => acked.length >= 30 && n >= 200, 'writes under way', 20_000).catch((err) => {
      throw new Error(`${err.message}: ${acked.length} acked, ${n} typed`);
    });
    first.child.kill('SIGKILL');
    await first.exited;
    typing = false;
    await typer;
    await Promise.all(writers);
    // What each editor received from the other was broadcast, hence must have been persisted.
    const seenByA = Y.encodeStateVector(a.doc);
    const seenByB = Y.encodeStateVector(b.doc);
    const aId = a.doc.clientID;
    const bId = b.doc.clientID;
    for (const e of [a, b]) e.provider.disconnect();

    const second = await startChildServer(dataDir);
    const rest2 = new Client(second.url, key, orgId);
    const model = blocks(await rest2.model(id));
    const texts = model.map((x) => x.text);
    for (const t of acked) expect(texts).toContain(t);
    const fresh = editor(second.url, id, key);
    await synced(fresh);
    const after = Y.decodeStateVector(Y.encodeStateVector(fresh.doc));
    for (const [sv, own] of [[seenByA, aId], [seenByB, bId]] as const) {
      for (const [client, clock] of Y.decodeStateVector(sv)) {
        if (client === own) continue; // an editor's own unsent typing was never acknowledged
        expect(after.get(client) ?? 0, `client ${client}`).toBeGreaterThanOrEqual(clock);
      }
    }
    // Reconnected editors resend what the server lacks; everyone converges, nothing is lost.
    for (const e of [a, b]) e.provider.destroy();
    const a2 = editor(second.url, id, key);
    const b2 = editor(second.url, id, key);
    Y.applyUpdate(a2.doc, Y.encodeStateAsUpdate(a.doc));
    Y.applyUpdate(b2.doc, Y.encodeStateAsUpdate(b.doc));
    await Promise.all([a2, b2].map(synced));
    await waitFor(() => {
      const sa = textOfY(a2.fragment.get(1) as Y.XmlElement);
      return sa.startsWith(`a${n - 1} `) && editorBlocks(fresh).length === editorBlocks(a2).length;
    }, 'convergence after restart');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('SIGTERM with editors connected: editors get 1001, exit code 0, state intact and compacted', async () => {
    const { dataDir, key, orgId } = await prepareDataDir();
    const first = await startChildServer(dataDir);
    const rest = new Client(first.url, key, orgId);
    const id = await rest.importMarkdown('Graceful\n');
    const blockId = blocks(await rest.model(id))[0]!.id;
    const a = editor(first.url, id, key);
    const b = editor(first.url, id, key);
    await Promise.all([a, b].map(synced));
    for (let i = 0; i < 50; i++) typeInto(a, blockId, 0, `${i} `);
    expect((await rest.edit(id, [{ type: 'create_node', nodeType: 'heading', params: [{ level: 2, content: 'Tail' }] }])).status).toBe(200);
    const expected = editorBlocks(a).map((x) => x.text);
    await waitFor(() => editorBlocks(b).map((x) => x.text).join('|') === expected.join('|') && expected.length === 2, 'B in sync');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await waitFor(() => a.closes.length > 0 && b.closes.length > 0, 'close frames');
    expect(a.closes[0]).toEqual({ code: 1001, reason: 'server shutting down' });
    const finalText = editorBlocks(a).map((x) => x.text);
    for (const e of [a, b]) e.provider.destroy();
    // Compacted on the way out: the journal is one snapshot, no log rows.
    const logRows = await withStore(dataDir, async (engine) => (await engine.get<{ n: number }>('SELECT COUNT(*) AS n FROM journal_updates'))!.n);
    expect(logRows).toBe(0);
    const second = await startChildServer(dataDir);
    const rest2 = new Client(second.url, key, orgId);
    expect(blocks(await rest2.model(id)).map((x) => x.text)).toEqual(finalText);
    expect(finalText[0]).toMatch(/^49 48 .* 0 Graceful$/);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
