/**
 * Quotas of an organization beside its request limits (issue 26, "one tenant against the
 * others"; docs/billing.md): bytes received from its editors per minute, and bytes its journals
 * store. Real editors (y-websocket, and raw sockets where a refusal is checked), real REST
 * clients; the tiers' values are made small with ORG_REALTIME_BYTES_PER_MINUTE and
 * ORG_STORED_BYTES. The billing clock is fixed, so no minute boundary falls inside a test.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { generateMarkdown } from '../../bench/markdown.ts';
import { ManualClock } from '../../server/billing/clock.ts';
import { serverSuite, type Client, type TestServer } from '../helpers/server.ts';
import { connectEditor, synced, waitFor } from '../realtime/helpers.ts';
import { rawSocket, syncUpdate } from '../realtime/hostile-helpers.ts';

/** Appends a paragraph of `chars` characters to an editor's document (one update). */
function paragraph(fragment: Y.XmlFragment, chars: number, label = 'p'): void {
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText(`${label} `.padEnd(chars, 'x'))]);
  fragment.push([p]);
}

/** A y-websocket update message adding one paragraph to a document synced with the journal. */
function paragraphUpdate(state: Uint8Array, chars: number): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  const sv = Y.encodeStateVector(doc);
  paragraph(doc.getXmlFragment('prosemirror'), chars);
  const u = Y.encodeStateAsUpdate(doc, sv);
  doc.destroy();
  return syncUpdate(u);
}

describe('realtime bytes per minute, per organization', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12, 0, 5));
  const LIMIT = 200_000;
  let server: TestServer;
  let a: Client;
  serverSuite({ clock, tier: 'developer', env: { ORG_REALTIME_BYTES_PER_MINUTE: `${LIMIT},${LIMIT * 10},${LIMIT * 100}` } }, (s, c) => {
    server = s;
    a = c;
  });

  it("past the tier's bytes per minute an organization's editor is closed (1013) and upgrades answer 429; another organization's editors go on", async () => {
    const journal = (await a.put('/v1/journals/editor/create', { title: 'flood' })).body.journal_id;
    const editor = connectEditor(server.url, journal, { key: a.key });
    await synced(editor);
    // 10 KB paragraphs until the server closes the editor: 300 KB would be 1.5 times the quota.
    for (let i = 0; i < 30 && editor.closes.length === 0; i++) {
      paragraph(editor.fragment, 10_000, `a${i}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const closed = await waitFor(() => editor.closes[0], 'the editor to be closed');
    editor.destroy();
    expect(closed.code).toBe(1013);
    expect(closed.reason).toMatch(new RegExp(`organization realtime quota: ${LIMIT} bytes per minute`));

    const usage = (await a.get('/v1/usage')).body;
    expect(usage.quotas.realtime_bytes_per_minute.limit).toBe(LIMIT);
    expect(usage.quotas.realtime_bytes_per_minute.used).toBeLessThanOrEqual(LIMIT);
    expect(usage.quotas.realtime_bytes_per_minute.used).toBeGreaterThan(LIMIT - 20_000);
    expect(usage.usage.minute.requests).not.toHaveProperty('realtime bytes received');

    // A new editor of the same organization: refused on the upgrade until the minute ends.
    const again = rawSocket(server.url, journal, a.key!);
    await expect(again.opened).rejects.toThrow(/429/);

    // Another organization's editor is not affected.
    const b = await server.newClient('developer');
    const bJournal = (await b.put('/v1/journals/editor/create', { title: 'calm' })).body.journal_id;
    const other = connectEditor(server.url, bJournal, { key: b.key });
    await synced(other);
    paragraph(other.fragment, 5_000, 'from-b');
    await waitFor(async () => ((await b.get(`/v1/journals/content/${bJournal}`)).body.content as string).includes('from-b'), "B's update stored");
    expect(other.closes).toEqual([]);
    other.destroy();

    // The next minute, A's editors are welcome again.
    clock.advance(60_000);
    const later = rawSocket(server.url, journal, a.key!);
    await later.opened;
    later.ws.close();
  }, 60_000);
});

describe('stored bytes per organization', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12, 0, 5));
  const LIMIT = 150_000;
  let server: TestServer;
  let a: Client;
  serverSuite({ clock, tier: 'developer', env: { ORG_STORED_BYTES: `${LIMIT},${LIMIT * 10},${LIMIT * 100}` } }, (s, c) => {
    server = s;
    a = c;
  });

  it("at the tier's stored bytes, journal writes answer 413 and an editor's update closes it (4402); reads go on; deleting frees storage", async () => {
    const md = generateMarkdown(40 * 1024);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await a.put('/v1/journals/editor/import_from_markdown', { markdown: md, title: `j${i}` });
      if (r.status === 413) break;
      expect(r.status).toBe(200);
      ids.push(r.body.journal_id);
    }
    const usage = (await a.get('/v1/usage')).body;
    expect(usage.quotas.stored_bytes.limit).toBe(LIMIT);
    expect(usage.quotas.stored_bytes.used).toBeGreaterThanOrEqual(LIMIT);
    expect(usage.quotas.stored_bytes.remaining).toBe(0);

    // Every journal write is refused, and nothing is stored.
    const listed = (await a.get('/v1/journals/list?page_size=100')).body.journals.length;
    const imported = await a.put('/v1/journals/editor/import_from_markdown', { markdown: '# one more', title: 'x' });
    expect(imported.status).toBe(413);
    expect(imported.body.error).toMatch(/Storage quota reached: organization storage quota: .* the developer tier allows 150000/);
    expect((await a.put('/v1/journals/editor/create', { title: 'x' })).status).toBe(413);
    const model = (await a.get(`/v1/journals/editor/model/${ids[0]}`)).body;
    const edit = await a.patch('/v1/journals/editor/edit', {
      journal_id: ids[0],
      operations: [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'more' }] }],
    });
    expect(edit.status).toBe(413);
    expect((await a.get('/v1/journals/list?page_size=100')).body.journals.length).toBe(listed);
    expect((await a.get(`/v1/journals/editor/model/${ids[0]}`)).body.revision).toBe(model.revision);

    // An editor may connect and read; its update is refused, unapplied.
    const raw = rawSocket(server.url, ids[0]!, a.key!);
    await raw.opened;
    await raw.roundTrip();
    // A paragraph from a client of its own (a concurrent insertion the journal would accept).
    await raw.send(paragraphUpdate(Y.encodeStateAsUpdate(new Y.Doc()), 100));
    const closed = await raw.waitClosed();
    expect(closed.code).toBe(4402);
    expect(closed.reason).toMatch(/organization storage quota/);
    expect((await a.get(`/v1/journals/editor/model/${ids[0]}`)).body.revision).toBe(model.revision);

    // Deleting journals for good frees storage: writes are accepted again.
    for (const id of ids.slice(0, 3)) expect((await a.del(`/v1/journals/editor/delete/${id}?permanent=true`)).status).toBe(200);
    const after = (await a.get('/v1/usage')).body;
    expect(after.quotas.stored_bytes.used).toBeLessThan(LIMIT);
    expect((await a.put('/v1/journals/editor/create', { title: 'room again' })).status).toBe(200);
  }, 60_000);
});
