import { describe, expect, it } from 'vitest';
import { blocks, Client, serverSuite, type TestServer, textOf } from '../helpers/server.ts';

let server: TestServer;
let c: Client;
serverSuite({}, (s, client) => {
  server = s;
  c = client;
});

async function journal(md = '# Title\n\nfirst\n\nsecond\n') {
  const id = await c.importMarkdown(md);
  const m = await c.model(id);
  return { id, blocks: blocks(m), revision: m.revision as number };
}

describe('create_node', () => {
  it('places blocks after (default), before, and appends without a reference', async () => {
    const j = await journal();
    const [title, first] = j.blocks;
    const r = await c.edit(j.id, [
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'after first' }], referenceId: first!.id },
      { type: 'create_node', nodeType: 'heading', params: [{ level: 2, content: 'Intro *now*' }], referenceId: title!.id, position: 'before' },
      { type: 'create_node', nodeType: 'paragraph', params: ['the end'] },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, journal_id: j.id, message: '3 of 3 operations applied' });
    for (const res of r.body.results) {
      expect(res).toMatchObject({ operation: 'create_node', success: true, error: '', data: { created: true, updated: '', deleted: '' } });
      expect(res.data.nodeId).toMatch(/^[A-Za-z0-9]{10}$/);
    }
    const after = blocks(await c.model(j.id));
    expect(after.map((b) => b.text)).toEqual(['Intro now', 'Title', 'first', 'after first', 'second', 'the end']);
    expect(after[0]).toMatchObject({ type: 'heading', id: r.body.results[1].data.nodeId });
    expect(after[0]!.attrs.level).toBe(2);
    expect(await c.content(j.id)).toBe('## Intro *now*\n\n# Title\n\nfirst\n\nafter first\n\nsecond\n\nthe end\n');
  });

  it('accepts positional params for headings and several payloads in one operation', async () => {
    const j = await journal('only\n');
    const r = await c.edit(j.id, [
      { type: 'create_node', nodeType: 'heading', params: [3, 'Positional'], referenceId: j.blocks[0]!.id, position: 'before' },
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'one' }, { content: 'two' }, { content: 'three' }] },
    ]);
    expect(r.body.success).toBe(true);
    expect(r.body.results[1].data.nodeIds).toHaveLength(3);
    expect(await c.content(j.id)).toBe('### Positional\n\nonly\n\none\n\ntwo\n\nthree\n');
  });

  it('creates every block kind', async () => {
    const j = await journal('start\n');
    const ops = [
      { nodeType: 'blockquote', params: [{ content: 'quoted **bold**' }] },
      { nodeType: 'bullet_list', params: [{ items: ['a', 'b'] }] },
      { nodeType: 'ordered_list', params: [{ items: ['x', 'y'], start: 3 }] },
      { nodeType: 'task_list', params: [{ items: [{ content: 'done', checked: true }, 'todo'] }] },
      { nodeType: 'code_block', params: [{ content: 'let x = 1;', language: 'ts' }] },
      { nodeType: 'horizontal_rule', params: [] },
      { nodeType: 'image', params: [{ src: 'https://example.com/a.png', alt: 'A' }] },
      { nodeType: 'table', params: [{ rows: [['h1', 'h2'], ['*a*', 'b']], align: ['left', null] }] },
      { nodeType: 'html_block', params: [{ html: '<div class="x">raw</div>' }] },
      { nodeType: 'markdown', params: [{ content: '## Sub\n\ntext' }] },
    ].map((o) => ({ type: 'create_node', ...o }));
    const r = await c.edit(j.id, ops);
    expect(r.body.results.filter((x: any) => !x.success)).toEqual([]);
    const types = blocks(await c.model(j.id)).map((b) => b.type);
    expect(types).toEqual([
      'paragraph', 'blockquote', 'bullet_list', 'ordered_list', 'bullet_list', 'code_block', 'horizontal_rule',
      'paragraph', 'table', 'html_block', 'heading', 'paragraph',
    ]);
    const md = await c.content(j.id);
    expect(md).toContain('> quoted **bold**');
    expect(md).toContain('3. x');
    expect(md).toMatch(/\[x\] done/);
    expect(md).toContain('```ts\nlet x = 1;\n```');
    expect(md).toContain('![A](https://example.com/a.png)');
    expect(md).toMatch(/\| h1 +\| h2 +\|/);
    expect(md).toContain('<div class="x">raw</div>');
  });

  it('places a list item inside a list, and refuses kinds that do not fit there', async () => {
    const j = await journal('- one\n- two\n');
    const list = (await c.model(j.id)).model.content[0];
    const firstItem = list.content[0].attrs.id;
    const r = await c.edit(j.id, [
      { type: 'create_node', nodeType: 'list_item', params: [{ content: 'one and a half' }], referenceId: firstItem },
      { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'not an item' }], referenceId: firstItem },
      { type: 'create_node', nodeType: 'list_item', params: [{ content: 'loose item' }] },
    ]);
    expect(r.body.results.map((x: any) => x.success)).toEqual([true, false, false]);
    expect(r.body.results[1].error).toMatch(/cannot place paragraph/);
    expect(r.body.results[2].error).toMatch(/top level/);
    expect(await c.content(j.id)).toBe('- one\n- one and a half\n- two\n');
  });

  it('fails an unknown reference and inline content that is not inline', async () => {
    const j = await journal();
    const r = await c.edit(j.id, [
      { type: 'create_node', nodeType: 'paragraph', params: ['x'], referenceId: 'nope' },
      { type: 'create_node', nodeType: 'paragraph', params: ['- a list'] },
    ]);
    expect(r.body.success).toBe(false);
    expect(r.body.results[0]).toMatchObject({ success: false, error: expect.stringMatching(/no block with id "nope"/) });
    expect(r.body.results[1]).toMatchObject({ success: false, error: expect.stringMatching(/inline markdown/) });
    expect(r.body.message).toBe('0 of 2 operations applied');
  });
});

describe('update_node and delete_node', () => {
  it('updates a block in place and keeps its id', async () => {
    const j = await journal();
    const target = j.blocks[1]!;
    const r = await c.edit(j.id, [{ type: 'update_node', nodeId: target.id, nodeType: 'paragraph', params: [{ content: 'New **text**' }] }]);
    expect(r.body.results[0]).toMatchObject({ operation: 'update_node', success: true, data: { created: false, nodeId: target.id, updated: target.id, deleted: '' } });
    const after = blocks(await c.model(j.id));
    expect(after[1]).toMatchObject({ id: target.id, text: 'New text' });
    expect(after.map((b) => b.id)).toEqual(j.blocks.map((b) => b.id));
    expect(await c.content(j.id)).toBe('# Title\n\nNew **text**\n\nsecond\n');
  });

  it('changes a block kind, keeping the id, and defaults nodeType to the current kind', async () => {
    const j = await journal();
    const target = j.blocks[1]!;
    let r = await c.edit(j.id, [{ type: 'update_node', nodeId: target.id, nodeType: 'heading', params: [2, 'Now a heading'] }]);
    expect(r.body.success).toBe(true);
    r = await c.edit(j.id, [{ type: 'update_node', nodeId: j.blocks[0]!.id, params: [{ level: 4, content: 'Retitled' }] }]);
    expect(r.body.success).toBe(true);
    const after = blocks(await c.model(j.id));
    expect(after[1]).toMatchObject({ type: 'heading', id: target.id, text: 'Now a heading' });
    expect(after[0]!.attrs.level).toBe(4);
  });

  it('deletes by id and later operations see earlier ones', async () => {
    const j = await journal();
    const r = await c.edit(j.id, [
      { type: 'create_node', nodeType: 'paragraph', params: ['temp'] },
      { type: 'delete_node', nodeId: j.blocks[1]!.id },
      { type: 'delete_node', nodeId: j.blocks[1]!.id },
    ]);
    expect(r.body.results.map((x: any) => x.success)).toEqual([true, true, false]);
    expect(r.body.results[1].data).toMatchObject({ deleted: j.blocks[1]!.id, nodeId: j.blocks[1]!.id });
    const created = r.body.results[0].data.nodeId;
    const r2 = await c.edit(j.id, [
      { type: 'update_node', nodeId: created, params: ['changed'] },
      { type: 'create_node', nodeType: 'paragraph', params: ['after temp'], referenceId: created },
      { type: 'delete_node', nodeId: created },
      { type: 'create_node', nodeType: 'paragraph', params: ['x'], referenceId: created },
    ]);
    expect(r2.body.results.map((x: any) => x.success)).toEqual([true, true, true, false]);
    expect(await c.content(j.id)).toBe('# Title\n\nsecond\n\nafter temp\n');
  });

  it('refuses to delete the last item of a list but deletes the list', async () => {
    const j = await journal('- only\n\ntext\n');
    const list = (await c.model(j.id)).model.content[0];
    const r = await c.edit(j.id, [
      { type: 'delete_node', nodeId: list.content[0].attrs.id },
      { type: 'delete_node', nodeId: list.attrs.id },
      { type: 'delete_node', nodeId: list.content[0].attrs.id },
    ]);
    expect(r.body.results.map((x: any) => x.success)).toEqual([false, true, false]);
    expect(r.body.results[0].error).toMatch(/last list_item/);
    expect(await c.content(j.id)).toBe('text\n');
  });

  it('keeps one empty paragraph when every block is deleted', async () => {
    const j = await journal('a\n\nb\n');
    const r = await c.edit(j.id, j.blocks.map((b) => ({ type: 'delete_node', nodeId: b.id })));
    expect(r.body.success).toBe(true);
    const after = blocks(await c.model(j.id));
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ type: 'paragraph', text: '' });
    expect(j.blocks.map((b) => b.id)).not.toContain(after[0]!.id);
  });
});

describe('atomic, dry run, revisions, idempotency', () => {
  it('is non-atomic by default: successes apply, failures are reported', async () => {
    const j = await journal();
    const r = await c.edit(j.id, [
      { type: 'create_node', nodeType: 'paragraph', params: ['kept'] },
      { type: 'delete_node', nodeId: 'missing' },
    ]);
    expect(r.body.success).toBe(false);
    expect(r.body.applied).toBe(true);
    expect(r.body.revision).toBe(j.revision + 1);
    expect(await c.content(j.id)).toContain('kept');
  });

  it('applies all successful operations as one revision (one Yjs transaction)', async () => {
    const j = await journal();
    const r = await c.edit(j.id, [
      { type: 'create_node', nodeType: 'paragraph', params: ['1'] },
      { type: 'create_node', nodeType: 'paragraph', params: ['2'] },
      { type: 'update_node', nodeId: j.blocks[1]!.id, params: ['3'] },
    ]);
    expect(r.body.revision).toBe(j.revision + 1);
  });

  it('atomic: one failure applies nothing', async () => {
    const j = await journal();
    const before = await c.content(j.id);
    const r = await c.edit(j.id, [
      { type: 'create_node', nodeType: 'paragraph', params: ['not kept'] },
      { type: 'delete_node', nodeId: 'missing' },
    ], { atomic: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: false, applied: false, revision: j.revision });
    expect(r.body.results[0]).toMatchObject({ success: false, error: expect.stringMatching(/atomic/) });
    expect(await c.content(j.id)).toBe(before);
    const ok = await c.edit(j.id, [{ type: 'create_node', nodeType: 'paragraph', params: ['kept'] }], { atomic: true });
    expect(ok.body).toMatchObject({ success: true, applied: true });
  });

  it('dry run reports without changing anything', async () => {
    const j = await journal();
    const before = await c.content(j.id);
    const r = await c.edit(j.id, [
      { type: 'create_node', nodeType: 'paragraph', params: ['maybe'] },
      { type: 'delete_node', nodeId: j.blocks[0]!.id },
      { type: 'delete_node', nodeId: 'missing' },
    ], { dry_run: true });
    expect(r.body).toMatchObject({ success: false, applied: false, dry_run: true, revision: j.revision });
    expect(r.body.results.map((x: any) => x.success)).toEqual([true, true, false]);
    expect(await c.content(j.id)).toBe(before);
  });

  it('expected_revision: 409 with the current revision when the journal moved on', async () => {
    const j = await journal();
    const ok = await c.edit(j.id, [{ type: 'create_node', nodeType: 'paragraph', params: ['a'] }], { expected_revision: j.revision });
    expect(ok.status).toBe(200);
    const stale = await c.edit(j.id, [{ type: 'create_node', nodeType: 'paragraph', params: ['b'] }], { expected_revision: j.revision });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: expect.any(String), current_revision: ok.body.revision });
    expect(await c.content(j.id)).not.toContain('\nb\n');
    const content = await c.get(`/v1/journals/content/${j.id}`);
    expect(content.body.revision).toBe(ok.body.revision);
  });

  it('Idempotency-Key: a retry returns the stored response and applies nothing twice', async () => {
    const j = await journal();
    const ops = [{ type: 'create_node', nodeType: 'paragraph', params: ['once'] }];
    const h = { 'Idempotency-Key': `k-${j.id}` };
    const first = await c.edit(j.id, ops, {}, h);
    const again = await c.edit(j.id, ops, {}, h);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await c.content(j.id)).match(/once/g)).toHaveLength(1);
    const other = await c.edit(j.id, [{ type: 'create_node', nodeType: 'paragraph', params: ['twice'] }], {}, h);
    expect(other.status).toBe(422);
    expect(other.body.detail[0].loc).toEqual(['header', 'Idempotency-Key']);
    expect(await c.content(j.id)).not.toContain('twice');
    // the same key from another API key is independent
    const d = await server.newClient();
    const theirs = await d.importMarkdown('x');
    expect((await d.edit(theirs, ops, {}, h)).status).toBe(200);
  });
});

describe('validation (422 for the whole request, nothing applied)', () => {
  it('rejects unknown operation types, missing fields and bad payloads with precise locs', async () => {
    const j = await journal();
    const before = await c.content(j.id);
    const cases: [unknown[], (string | number)[]][] = [
      [[{ type: 'create_node', nodeType: 'paragraph', params: ['ok'] }, { type: 'move_node' }], ['body', 'operations', 1, 'type']],
      [[{ type: 'update_node', params: ['x'] }], ['body', 'operations', 0, 'nodeId']],
      [[{ type: 'create_node', nodeType: 'banner', params: [] }], ['body', 'operations', 0, 'nodeType']],
      [[{ type: 'create_node', nodeType: 'heading', params: [{ level: 9, content: 'x' }] }], ['body', 'operations', 0, 'params', 0, 'level']],
      [[{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'x', colour: 'red' }] }], ['body', 'operations', 0, 'params', 0]],
      [[{ type: 'create_node', nodeType: 'paragraph', params: [1, 2] }], ['body', 'operations', 0, 'params']],
      [['not an object'], ['body', 'operations', 0]],
    ];
    for (const [ops, loc] of cases) {
      const r = await c.edit(j.id, ops);
      expect(r.status, JSON.stringify(ops)).toBe(422);
      expect(r.body.detail[0].loc, JSON.stringify(ops)).toEqual(loc);
      expect(r.body.detail[0].msg.length).toBeGreaterThan(0);
    }
    expect(await c.content(j.id)).toBe(before);
  });

  it('limits operations per call and requires at least one', async () => {
    const j = await journal();
    const many = Array.from({ length: 501 }, () => ({ type: 'create_node', nodeType: 'paragraph', params: ['x'] }));
    const r = await c.edit(j.id, many);
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toMatch(/500/);
    expect((await c.edit(j.id, [])).status).toBe(422);
    const missing = await c.patch('/v1/journals/editor/edit', { journal_id: j.id });
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'operations'], type: 'missing' });
  });

  it('accepts sync_realtime_state and rejects non-booleans', async () => {
    const j = await journal();
    expect((await c.edit(j.id, [{ type: 'create_node', nodeType: 'paragraph', params: ['x'] }], { sync_realtime_state: false })).status).toBe(200);
    const r = await c.edit(j.id, [{ type: 'create_node', nodeType: 'paragraph', params: ['x'] }], { sync_realtime_state: 'yes' });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'sync_realtime_state']);
  });
});

describe('minimal updates', () => {
  it('an update leaves every other block object untouched (same ids, same text)', async () => {
    const j = await journal('# A\n\nalpha\n\nbeta\n\ngamma\n');
    await c.edit(j.id, [{ type: 'update_node', nodeId: j.blocks[2]!.id, params: ['beta, edited'] }]);
    const m = await c.model(j.id);
    expect(blocks(m).map((b) => [b.id, b.text])).toEqual([
      [j.blocks[0]!.id, 'A'],
      [j.blocks[1]!.id, 'alpha'],
      [j.blocks[2]!.id, 'beta, edited'],
      [j.blocks[3]!.id, 'gamma'],
    ]);
    expect(textOf(m.model)).toBe('Aalphabeta, editedgamma');
  });
});
