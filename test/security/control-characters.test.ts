/**
 * NUL and the other C0 controls (U+0000–U+001F), on both engines (this file is one of the
 * postgres project's suites): refused with a 422 naming the field wherever the field is text a
 * person writes (titles, names, a set's description, webhook URLs), with nothing stored; kept
 * verbatim where content allows them (code blocks, HTML blocks, text typed by an editor), and
 * never a 500: such a journal's content and model answer 200 on every load, warm or cold, and it
 * stays deletable.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createApiKey, createOrganization } from '../../server/auth/keys.ts';
import { Client, serverSuite, type TestServer } from '../helpers/server.ts';
import { connectEditor, synced, waitFor } from '../realtime/helpers.ts';

let server: TestServer;
let c: Client;

serverSuite({}, (s, client) => {
  [server, c] = [s, client];
});

/** Controls refused in every person-written field; tab, newline and CR only in one-line names. */
const CONTROLS = ['\u0000', '\u0001', '\u0007', '\u001b', '\u001f'];
const LINE_BREAKS = ['\t', '\n', '\r'];

function expectRefused(r: { status: number; body: any }, loc: (string | number)[]): void {
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  const item = r.body.detail.find((d: any) => JSON.stringify(d.loc) === JSON.stringify(loc));
  expect(item, JSON.stringify(r.body.detail)).toBeDefined();
  expect(item.msg).toMatch(/control characters|spaces or control/);
}

async function journalCount(client: Client): Promise<number> {
  return (await client.get('/v1/journals/list?page_size=100')).body.journals.length;
}

describe('text a person writes', () => {
  it('journal titles on create, import and rename: every C0 control is a 422 naming the field, nothing stored', async () => {
    const id = await c.importMarkdown('# Kept\n', 'Kept title');
    const before = await journalCount(c);
    for (const ch of [...CONTROLS, ...LINE_BREAKS]) {
      const title = `Bad${ch}title`;
      expectRefused(await c.put('/v1/journals/editor/create', { title }), ['body', 'title']);
      expectRefused(await c.put('/v1/journals/editor/import_from_markdown', { markdown: '# x\n', title }), ['body', 'title']);
      expectRefused(await c.patch('/v1/journals/editor/rename', { journal_id: id, title }), ['body', 'title']);
    }
    expect(await journalCount(c)).toBe(before);
    expect((await c.get(`/v1/journals/content/${id}`)).body.title).toBe('Kept title');
    // Other characters stay allowed: DEL, C1, emoji, right-to-left.
    const fine = await c.put('/v1/journals/editor/create', { title: 'Zelle \u007f \u0085 🧬 שלום' });
    expect(fine.status).toBe(200);
    expect(fine.body.title).toBe('Zelle \u007f \u0085 🧬 שלום');
  });

  it('version names', async () => {
    const id = await c.importMarkdown('# Versions\n');
    for (const ch of [...CONTROLS, ...LINE_BREAKS]) expectRefused(await c.post(`/v1/journals/versions/${id}`, { name: `v${ch}1` }), ['body', 'name']);
    expect((await c.get(`/v1/journals/versions/${id}`)).body.versions.filter((v: any) => v.kind === 'named')).toHaveLength(0);
    expect((await c.post(`/v1/journals/versions/${id}`, { name: '  before the exam ' })).body.name).toBe('before the exam');
  });

  it('practice set names, descriptions and webhook URLs; a description keeps its line breaks', async () => {
    const base = { set_description: 'linear equations', count: 1 };
    for (const ch of CONTROLS) {
      expectRefused(await c.post('/v1/interactives/practice/create', { ...base, set_name: `Set${ch}` }), ['body', 'set_name']);
      expectRefused(await c.post('/v1/interactives/practice/create', { ...base, set_description: `linear${ch}equations` }), ['body', 'set_description']);
      expectRefused(await c.post('/v1/interactives/practice/create', { ...base, webhook_url: `https://hooks.example.com/a${ch}b` }), ['body', 'webhook_url']);
    }
    for (const ch of LINE_BREAKS) expectRefused(await c.post('/v1/interactives/practice/create', { ...base, set_name: `Set${ch}1` }), ['body', 'set_name']);
    expect((await c.get('/v1/interactives/practice/list')).body.sets).toHaveLength(0);
    const ok = await c.post('/v1/interactives/practice/create', { ...base, set_description: 'linear equations\n\twith one unknown\r\n' });
    expect(ok.status).toBe(200);
  });

  it('video titles, voices and webhook URLs', async () => {
    for (const ch of CONTROLS) {
      expectRefused(await c.post('/v1/video/create', { text: 'Cells divide.', title: `Cells${ch}` }), ['body', 'title']);
      expectRefused(await c.post('/v1/video/create', { text: 'Cells divide.', voice: `en${ch}` }), ['body', 'voice']);
      expectRefused(await c.post('/v1/video/create', { text: 'Cells divide.', webhook_url: `https://hooks.example.com/${ch}` }), ['body', 'webhook_url']);
    }
    expect((await c.get('/v1/video/list')).body.videos).toHaveLength(0);
  });

  it('key names', async () => {
    const org = await createOrganization(server.svc.ctx.engine, 'controls', 'enterprise');
    const { api_key } = await createApiKey(server.svc.ctx.engine, org.id, 'admin', 'admin');
    const admin = new Client(server.url, api_key, org.id);
    for (const ch of [...CONTROLS, ...LINE_BREAKS]) expectRefused(await admin.post('/v1/keys', { name: `ci${ch}` }), ['body', 'name']);
    expect((await admin.get('/v1/keys')).body.keys).toHaveLength(1);
  });
});

describe('ids holding controls name nothing', () => {
  it('in a path: 404; in a body or query: 422 naming the field; never a lookup that fails', async () => {
    const id = await c.importMarkdown('# Ids\n');
    for (const p of ['/v1/journals/content/%00', `/v1/journals/content/${id}%00`, '/v1/journals/editor/model/a%1Fb', `/v1/journals/versions/${id}%0A`, '/v1/interactives/flashcards/%00']) {
      expect((await c.get(p)).status, p).toBe(404);
    }
    expect((await c.del('/v1/journals/editor/delete/%00')).status).toBe(404);
    expectRefused(await c.patch('/v1/journals/editor/rename', { journal_id: `${id}\u0000`, title: 'x' }), ['body', 'journal_id']);
    expectRefused(await c.edit(`${id}\u0000`, [{ type: 'delete_node', nodeId: 'x' }]), ['body', 'journal_id']);
    expectRefused(await c.post('/v1/journals/editor/session', { journal_id: `\u0000${id}` }), ['body', 'journal_id']);
    expectRefused(await c.post('/v1/interactives/flashcards/create', { journal_id: `${id}\u0000` }), ['body', 'journal_id']);
    expectRefused(await c.post('/v1/video/create', { journal_id: `${id}\u0000` }), ['body', 'journal_id']);
    expectRefused(await c.get(`/v1/journals/versions/${id}/diff?from=a%00b`), ['query', 'from']);
    expect((await c.get(`/v1/journals/content/${id}`)).body.title).toBe('Imported Journal');
  });
});

describe('content keeps its controls, and never makes a 500', () => {
  const CODE = 'a\u0000b\u0001c\u0007d\u001be\tf';

  /** content and model, three times warm and three times after the journal is unloaded. */
  async function readsAnswer(id: string, expected: string[]): Promise<void> {
    for (const cold of [false, true]) {
      for (let i = 0; i < 3; i++) {
        if (cold) server.svc.ctx.registry.evict(id, 'idle');
        const content = await c.get(`/v1/journals/content/${id}`);
        expect(content.status, JSON.stringify(content.body)).toBe(200);
        for (const e of expected) expect(content.body.content).toContain(e);
        expect((await c.get(`/v1/journals/editor/model/${id}`)).status).toBe(200);
      }
    }
  }

  it('a code block and an HTML block holding NUL and controls: kept verbatim, read on every load, deletable', async () => {
    const id = await c.importMarkdown('# Code\n\nText.\n');
    const edit = await c.edit(id, [
      { type: 'create_node', nodeType: 'code_block', params: [{ content: CODE, language: 'js' }] },
      { type: 'create_node', nodeType: 'html_block', params: [{ html: '<div>\u0000\u0002</div>' }] },
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'para \u0000 \u0003 end' }] },
    ]);
    expect(edit.status).toBe(200);
    expect(edit.body.success).toBe(true);
    const model = await c.model(id);
    expect(JSON.stringify(model.model)).toContain(JSON.stringify(CODE).slice(1, -1));
    await readsAnswer(id, [CODE, '<div>\u0000\u0002</div>']);
    // Features that read the journal: flashcards, a version and its diff.
    expect((await c.post('/v1/interactives/flashcards/create', { journal_id: id })).status).toBe(200);
    const version = await c.post(`/v1/journals/versions/${id}`, { name: 'with code' });
    expect(version.status).toBe(200);
    expect((await c.get(`/v1/journals/versions/${id}/diff?from=${version.body.version_id}`)).status).toBe(200);
    server.svc.ctx.registry.evict(id, 'idle');
    const del = await c.del(`/v1/journals/editor/delete/${id}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.deleted_journal_data.content).toContain(CODE);
    expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(404);
  });

  it('text typed by an editor holding NUL: content answers 200 on every load; delete answers 200', async () => {
    const id = await c.importMarkdown('# Typed\n\nHello\n');
    const editor = connectEditor(server.url, id, { key: c.key! });
    try {
      await synced(editor);
      ((editor.fragment.get(1) as Y.XmlElement).get(0) as Y.XmlText).insert(0, 'x\u0000y\u0001z ');
      await waitFor(() => {
        const live = server.svc.ctx.registry.get(id);
        return !!live && Buffer.from(Y.encodeStateVector(live.doc)).equals(Buffer.from(Y.encodeStateVector(editor.doc)));
      }, 'the server to take the update');
    } finally {
      editor.destroy();
    }
    await readsAnswer(id, ['Hello']);
    server.svc.ctx.registry.evict(id, 'idle');
    expect((await c.del(`/v1/journals/editor/delete/${id}`)).status).toBe(200);
    // From the trash too, for good.
    expect((await c.del(`/v1/journals/editor/delete/${id}?permanent=true`)).status).toBe(200);
  });

  it('text sent to flashcards and videos keeps its controls; a journal with NUL is found by a practice search', async () => {
    expect((await c.post('/v1/interactives/flashcards/create', { text: 'Mitosis\u0000 is cell division.\u0001 The cell\u0007 divides into two cells.' })).status).toBe(200);
    expect((await c.post('/v1/video/create', { text: 'Cells\u0000 divide.\u0001' })).status).toBe(200);
    const id = await c.importMarkdown('# Quadratic equations\n\nSolve x^2 = 4.\n');
    expect((await c.edit(id, [{ type: 'create_node', nodeType: 'code_block', params: [{ content: 'x\u0000 = 2' }] }])).status).toBe(200);
    const set = await c.post('/v1/interactives/practice/create', { set_description: 'quadratic equations', count: 1, search_for_problems: true, engine: 'offline' });
    expect(set.status).toBe(200);
    await waitFor(async () => (await c.get(`/v1/interactives/practice/status/${set.body.set_id}`)).body.status !== 'pending', 'the set to finish', 60_000);
    expect((await c.get(`/v1/interactives/practice/status/${set.body.set_id}`)).body.status).toBe('completed');
  });
});
