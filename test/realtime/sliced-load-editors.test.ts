/**
 * Editors of a journal loaded in slices (docs/realtime.md#cold-loads): with
 * JOURNAL_SLICED_LOAD_BYTES at 1 every load is sliced. A journal with an update log, unloaded, is
 * opened twice at once (one load); editors then get the stored document, converge on each other's
 * typing, and REST reads and edits see the same document.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { JournalStore } from '../../server/journals/store.ts';
import { blocks, type Client, type TestServer } from '../helpers/server.ts';
import { blockText, editorBlocks, editorSuite, synced, typeInto, waitFor } from './helpers.ts';

let server: TestServer;
let alice: Client;
const editor = editorSuite({ env: { JOURNAL_SLICED_LOAD_BYTES: '1' } }, (s, c) => {
  server = s;
  alice = c;
});

describe('a journal loaded in slices', () => {
  it('serves editors who join at once, and REST, the stored document', async () => {
    const paragraphs = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} of a journal loaded in slices.`);
    const id = await alice.importMarkdown(`# Sliced\n\n${paragraphs.join('\n\n')}\n`);
    const ids = blocks(await alice.model(id)).map((b) => b.id);
    // A log after the snapshot: the load merges them in its worker before cutting.
    expect((await alice.edit(id, [{ type: 'update_node', nodeId: ids[1], nodeType: 'paragraph', params: [{ content: 'Edited before the unload' }] }])).status).toBe(200);
    const registry = server.svc.ctx.registry;
    registry.evict(id, 'idle');
    expect(registry.get(id)).toBeUndefined();

    const row = (await new JournalStore(server.svc.ctx.engine).findById(id))!;
    const [live, again] = await Promise.all([registry.open(row), registry.open(row)]);
    expect(again).toBe(live);
    // Loaded in slices: the worker's merge of snapshot and log is kept as the encoded state before
    // anyone asks for it (a load in one piece of a journal with a log encodes it on demand).
    expect(live!.encodedBytes).toBeGreaterThan(0);
    expect(live!.doc.store.pendingStructs).toBeNull();
    const editors = [editor(id), editor(id), editor(id)];
    await Promise.all(editors.map(synced));
    expect(registry.get(id)).toBe(live);
    const [a, b, c] = editors;
    const expected = ['Sliced', 'Edited before the unload', ...paragraphs.slice(1)];
    for (const e of editors) expect(editorBlocks(e).map((x) => x.text)).toEqual(expected);
    expect(Y.encodeStateVector(a!.doc)).toEqual(Y.encodeStateVector(live!.doc));

    typeInto(a!, ids[2]!, 0, 'A: ');
    typeInto(b!, ids[3]!, 0, 'B: ');
    await waitFor(() => blockText(c!, ids[2]!)?.startsWith('A: ') && blockText(c!, ids[3]!)?.startsWith('B: '), 'convergence');
    const r = await alice.edit(id, [{ type: 'update_node', nodeId: ids[4], nodeType: 'paragraph', params: [{ content: 'From REST' }] }]);
    expect(r.status).toBe(200);
    await waitFor(() => editors.every((e) => blockText(e, ids[4]!) === 'From REST'), 'REST edit on every editor');
    const model = blocks(await alice.model(id));
    expect(model.map((x) => x.text)).toEqual(editorBlocks(c!).map((x) => x.text));
    expect(model.map((x) => x.id)).toEqual(ids);
  });
});
