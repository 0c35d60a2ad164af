/**
 * Export after edits reads again only the blocks that changed (server/journals/markdown-export.ts):
 * whatever the edits, GET content must equal the export of the whole document as the model reads it.
 */
import { expect, it } from 'vitest';
import type { Node as PMNode } from 'prosemirror-model';
import { blocksToMarkdown } from '../../shared/markdown/index.ts';
import { schema } from '../../shared/schema.ts';
import { Client, serverSuite } from '../helpers/server.ts';

let c: Client;
serverSuite({}, (_s, client) => {
  c = client;
});

async function wholeExport(id: string): Promise<string> {
  const doc = schema.nodeFromJSON((await c.model(id)).model);
  const blocks: PMNode[] = [];
  doc.forEach((b) => blocks.push(b));
  return blocksToMarkdown(blocks);
}

it('answers every export after an edit as a whole-document export would', async () => {
  const source = Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? `- list ${i}` : i % 3 === 1 ? `- other ${i}\n- more` : `Para *${i}*`)).join('\n\n');
  const id = await c.importMarkdown(source);
  expect(await c.content(id)).toBe(await wholeExport(id));
  const ids = () => c.model(id).then((m) => (m.model.content as { attrs: { id: string } }[]).map((b) => b.attrs.id));
  const edits: unknown[][] = [
    [{ type: 'update_node', nodeId: 1, nodeType: 'paragraph', params: [{ content: 'now a *paragraph*' }] }],
    [{ type: 'delete_node', nodeId: 4 }],
    [{ type: 'create_node', nodeType: 'bullet_list', params: [{ items: ['new list'] }], referenceId: 6, position: 'after' }],
    [{ type: 'update_node', nodeId: 0, nodeType: 'bullet_list', params: [{ items: ['changed', 'items'] }] }],
    [{ type: 'create_node', nodeType: 'paragraph', params: ['at the end'] }],
  ];
  for (const ops of edits) {
    const current = await ids();
    const resolved = ops.map((op) => {
      const o = { ...(op as Record<string, unknown>) };
      if (typeof o.nodeId === 'number') o.nodeId = current[o.nodeId];
      if (typeof o.referenceId === 'number') o.referenceId = current[o.referenceId];
      return o;
    });
    const r = await c.edit(id, resolved);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await c.content(id)).toBe(await wholeExport(id));
  }
});
