import { describe, expect, it } from 'vitest';
import { blocks, Client, serverSuite, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let alice: Client;
let bob: Client;
serverSuite({}, async (s, c) => {
  server = s;
  alice = c;
  bob = await s.newClient();
});

describe('authentication', () => {
  it('rejects missing, malformed and unknown keys with 401 {error}', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer sk_study_nope' }] as Record<string, string>[]) {
      const res = await fetch(`${server.url}/v1/journals/list`, { headers });
      expect(res.status).toBe(401);
      expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
    }
  });

  it('answers with X-Request-Id and Server-Timing', async () => {
    const r = await alice.get('/v1/journals/list');
    expect(r.headers.get('x-request-id')).toMatch(/.+/);
    expect(r.headers.get('server-timing')).toMatch(/^app;dur=\d/);
  });
});

describe('create, content, rename, model', () => {
  it('creates a blank journal with the documented response', async () => {
    const r = await alice.put('/v1/journals/editor/create', { title: 'Biology' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, title: 'Biology' });
    expect(r.body.journal_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof r.body.created_at).toBe('string');
    expect(typeof r.body.timestamp).toBe('string');
    const model = await alice.model(r.body.journal_id);
    expect(model.model.type).toBe('doc');
    expect(blocks(model)).toHaveLength(1);
    expect(blocks(model)[0]!.type).toBe('paragraph');
    expect(blocks(model)[0]!.id).toMatch(/^[A-Za-z0-9]{10}$/);
  });

  it('defaults the title and accepts an empty body', async () => {
    const r = await alice.put('/v1/journals/editor/create');
    expect(r.status).toBe(200);
    expect(r.body.title).toBe('Untitled Journal');
  });

  it('validates the title with 422 detail', async () => {
    for (const title of ['', '   ', 'x'.repeat(301), 42]) {
      const r = await alice.put('/v1/journals/editor/create', { title });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'title']);
      expect(typeof r.body.detail[0].msg).toBe('string');
      expect(typeof r.body.detail[0].type).toBe('string');
    }
  });

  it('imports markdown and reads it back as content and model', async () => {
    const md = '# Cells\n\nThe *cell* is the unit of life.\n\n- nucleus\n- ribosome\n';
    const r = await alice.put('/v1/journals/editor/import_from_markdown', { markdown: md, title: 'Cells', team_slug: 'bio-team' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, message: expect.any(String), timestamp: expect.any(String) });
    expect(r.body.journal_url).toBe(`${server.svc.ctx.config.publicBaseUrl}/journals/${r.body.journal_id}?team=bio-team`);
    const c = await alice.get(`/v1/journals/content/${r.body.journal_id}`);
    expect(c.body).toMatchObject({ success: true, title: 'Cells', journal_id: r.body.journal_id, content: md });
    expect(typeof c.body.revision).toBe('number');
    const m = await alice.model(r.body.journal_id);
    expect(m.success).toBe(true);
    expect(blocks(m).map((b) => b.type)).toEqual(['heading', 'paragraph', 'bullet_list']);
    expect(m.model.content[0].attrs.level).toBe(1);
    // every block node, nested ones too, carries an id
    const ids: string[] = [];
    const walk = (n: any) => {
      if (['paragraph', 'heading', 'bullet_list', 'list_item'].includes(n.type)) ids.push(n.attrs.id);
      (n.content ?? []).forEach(walk);
    };
    walk(m.model);
    expect(ids.length).toBe(7);
    expect(new Set(ids).size).toBe(7);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
  });

  it('validates import bodies', async () => {
    let r = await alice.put('/v1/journals/editor/import_from_markdown', {});
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'markdown'], type: 'missing' });
    r = await alice.put('/v1/journals/editor/import_from_markdown', { markdown: 'x'.repeat(1024 * 1024 + 1) });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toMatch(/1 MiB/);
    r = await alice.put('/v1/journals/editor/import_from_markdown', { markdown: 'ok', team_slug: 'bad slug!' });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'team_slug']);
  });

  it('defaults the import title', async () => {
    const id = await alice.importMarkdown('hello');
    const c = await alice.get(`/v1/journals/content/${id}`);
    expect(c.body.title).toBe('Imported Journal');
  });

  it('renames', async () => {
    const id = await alice.importMarkdown('text', 'Old');
    const r = await alice.patch('/v1/journals/editor/rename', { journal_id: id, title: 'New' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, journal_id: id, title: 'New', timestamp: expect.any(String) });
    expect((await alice.get(`/v1/journals/content/${id}`)).body.title).toBe('New');
    const bad = await alice.patch('/v1/journals/editor/rename', { journal_id: id });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([{ loc: ['body', 'title'], msg: 'Field required', type: 'missing' }]);
  });
});

describe('delete', () => {
  it('returns the full deleted record with every field typed as listed, then 404s', async () => {
    const id = await alice.importMarkdown('# Gone\n\nsoon\n', 'Doomed');
    const r = await alice.del(`/v1/journals/editor/delete/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, message: expect.any(String), timestamp: expect.any(String) });
    const d = r.body.deleted_journal_data;
    const strings = ['id', 'type', 'title', 'content', 'created_at', 'updated_at', 'font_family', 'publish_status', 'publish_subdomain', 'color', 'trashed_at', 'parent_item'];
    for (const k of strings) expect(typeof d[k], k).toBe('string');
    expect(d).toMatchObject({ id, type: 'journal', title: 'Doomed', content: '# Gone\n\nsoon\n', is_trashed: true, comments: [], order_indexes: null, pending_invites: null });
    expect(Object.keys(d).sort()).toEqual(
      [...strings, 'comments', 'is_trashed', 'order_indexes', 'pending_invites'].sort(),
    );
    expect((await alice.get(`/v1/journals/content/${id}`)).status).toBe(404);
    expect((await alice.del(`/v1/journals/editor/delete/${id}`)).status).toBe(404);
  });
});

describe('isolation between keys', () => {
  it('answers 404 {error} for a foreign id on every endpoint, and for unknown ids alike', async () => {
    const id = await alice.importMarkdown('# Private\n\nmine\n');
    const model = await alice.model(id);
    const blockId = model.model.content[0].attrs.id;
    for (const jid of [id, '00000000-0000-4000-8000-000000000000']) {
      const attempts = [
        bob.get(`/v1/journals/content/${jid}`),
        bob.get(`/v1/journals/editor/model/${jid}`),
        bob.patch('/v1/journals/editor/rename', { journal_id: jid, title: 'stolen' }),
        bob.edit(jid, [{ type: 'delete_node', nodeId: blockId }]),
        bob.del(`/v1/journals/editor/delete/${jid}`),
      ];
      for (const r of await Promise.all(attempts)) {
        expect(r.status).toBe(404);
        expect(typeof r.body.error).toBe('string');
      }
    }
    const list = await bob.get('/v1/journals/list');
    expect(list.body.journals.map((j: any) => j.id)).not.toContain(id);
    // nothing changed for the owner
    expect(await alice.content(id)).toBe('# Private\n\nmine\n');
  });

  it('keeps journals per key, even within one organization', async () => {
    const carol = await server.sameOrgClient(alice);
    const id = await alice.importMarkdown('alice only');
    expect((await carol.get(`/v1/journals/content/${id}`)).status).toBe(404);
  });
});

describe('errors', () => {
  it('answers malformed JSON with 422 at loc ["body"]', async () => {
    const r = await alice.request('PUT', '/v1/journals/editor/create', '{"title": ', {});
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('answers bodies over 2 MiB with 413 {error}', async () => {
    const r = await alice.put('/v1/journals/editor/import_from_markdown', { markdown: 'x'.repeat(2 * 1024 * 1024 + 10) });
    expect(r.status).toBe(413);
    expect(r.body.error).toMatch(/too large/);
  });

  it('answers a non-object body with 422', async () => {
    const r = await alice.put('/v1/journals/editor/create', [1, 2]);
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body']);
  });

  it('answers unknown routes with 404 {error}', async () => {
    const r = await alice.get('/v1/nope');
    expect(r.status).toBe(404);
    expect(r.body.error).toBeTruthy();
  });

  it('validates list query parameters', async () => {
    for (const q of ['page_size=0', 'page_size=101', 'page_size=abc', 'page_token=-1', 'page_token=abc']) {
      const r = await alice.get(`/v1/journals/list?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe('query');
    }
  });
});
