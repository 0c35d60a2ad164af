/**
 * A journal whose stored state holds what the schema cannot (written before editors' updates
 * were checked, or by a future client) must stay readable, editable and deletable: content, model,
 * edit and delete answer 200, the kept text survives, and the reader logs what it left out.
 * The hostile state is appended to the journal's update log directly, as an old version would have
 * stored it; everything else goes through the real HTTP API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { captureLogs } from '../realtime/hostile-helpers.ts';

const { logger, lines: logLines } = captureLogs();

let server: TestServer;
let c: Client;

beforeAll(async () => {
  server = await startTestServer({ logger });
  c = await server.newClient();
});
afterAll(() => server.close());

/** Imports a journal, then stores `damage` made on a copy of its state, as an editor's update would be. */
async function damagedJournal(damage: (fragment: Y.XmlFragment) => void): Promise<string> {
  const id = await c.importMarkdown('# Kept\n\nThis text survives.\n');
  const store = server.svc.ctx.journals.store;
  const row = (await store.findById(id))!;
  const state = (await store.loadState(row.seq))!;
  const copy = new Y.Doc();
  for (const u of [state.snapshot, ...state.updates]) if (u) Y.applyUpdate(copy, u);
  const before = Y.encodeStateVector(copy);
  copy.transact(() => damage(copy.getXmlFragment('prosemirror')));
  await store.appendUpdates(store.engine, row.seq, [Y.encodeStateAsUpdate(copy, before)]);
  return id;
}

function nest(parent: Y.XmlFragment | Y.XmlElement, name: string, depth: number): Y.XmlElement {
  let el = new Y.XmlElement(name);
  parent.insert(parent.length, [el]);
  for (let i = 1; i < depth; i++) {
    const child = new Y.XmlElement(name);
    el.insert(0, [child]);
    el = child;
  }
  return el;
}

const damages: Record<string, (f: Y.XmlFragment) => void> = {
  'an XmlText directly in the fragment': (f) => {
    const t = new Y.XmlText();
    f.insert(f.length, [t]);
    t.insert(0, 'stray');
  },
  '1,500 nested blockquotes': (f) => nest(f, 'blockquote', 1500),
  '20,000 nested list items in lists': (f) => {
    let el: Y.XmlFragment | Y.XmlElement = f;
    for (let i = 0; i < 10_000; i++) {
      const list = new Y.XmlElement('bullet_list');
      const item = new Y.XmlElement('list_item');
      el.insert(el.length, [list]);
      list.insert(0, [item]);
      el = item;
    }
  },
  'an element the schema does not know, with an id': (f) => {
    const el = new Y.XmlElement('marquee');
    f.insert(f.length, [el]);
    el.setAttribute('id', 'bogus1');
  },
  'a heading of level 1e9 and an embed': (f) => {
    const h = new Y.XmlElement('heading');
    f.insert(f.length, [h]);
    h.setAttribute('level', 1e9 as never);
    const t = new Y.XmlText();
    h.insert(0, [t]);
    t.insert(0, 'big');
    t.insertEmbed(3, { image: 'x' });
  },
  'a paragraph inside a paragraph, a list without items': (f) => {
    const p = new Y.XmlElement('paragraph');
    f.insert(f.length, [p, new Y.XmlElement('bullet_list')]);
    p.insert(0, [new Y.XmlElement('paragraph')]);
  },
};

describe('a journal with hostile stored content stays usable', () => {
  it.each(Object.keys(damages))('%s', async (name) => {
    const id = await damagedJournal(damages[name]!);
    // Cold (loaded from storage) and warm reads alike.
    for (let i = 0; i < 2; i++) {
      const model = await c.get(`/v1/journals/editor/model/${id}`);
      expect(model.status).toBe(200);
      expect(model.body.model.content[0].content[0].text).toBe('Kept');
      const content = await c.get(`/v1/journals/content/${id}`);
      expect(content.status).toBe(200);
      expect(content.body.content).toMatch(/^# Kept\n\nThis text survives\.\n/);
      expect(content.body.content.length).toBeLessThan(100_000);
    }
    // REST edits work beside the damage, and the unknown element is not addressable.
    const model = (await c.model(id)).model;
    const kept = model.content[1].attrs.id;
    const edit = await c.edit(id, [
      { type: 'update_node', nodeId: kept, params: [{ content: 'Edited.' }] },
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'Added.' }] },
      { type: 'update_node', nodeId: 'bogus1', params: [{ content: 'x' }] },
    ]);
    expect(edit.status).toBe(200);
    expect(edit.body.results.map((r: any) => r.success)).toEqual([true, true, false]);
    expect(await c.content(id)).toMatch(/^# Kept\n\nEdited\.\n/);
    const del = await c.del(`/v1/journals/editor/delete/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.deleted_journal_data.content).toContain('Edited.');
    expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(404);
  });

  it('logs what the reader left out, once per revision', async () => {
    logLines.length = 0;
    const id = await damagedJournal(damages['an XmlText directly in the fragment']!);
    await c.model(id);
    await c.model(id);
    const warnings = logLines.filter((l) => l.journal_id === id && String(l.msg).includes('left out'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ dropped: 1, issues: { 'stray-text': 1 } });
  });
});
