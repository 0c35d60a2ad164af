/**
 * Editors may write only the document root the service reads (the `prosemirror` fragment). A
 * stock y-websocket editor writing another root (`doc.getMap('hidden')`, 1 MB) is closed with
 * 4422 naming the root; nothing of it is stored, relayed to the other editors or sent to a new one.
 */
import { describe, expect, it } from 'vitest';
import { type Client, type TestServer } from '../helpers/server.ts';
import { editorBlocks, editorSuite, synced, typeInto, waitFor } from './helpers.ts';

let server: TestServer;
let alice: Client;
const editor = editorSuite({}, (s, c) => {
  server = s;
  alice = c;
});

describe('document roots', () => {
  it('refuses an editor writing another root: 4422, nothing stored or relayed', async () => {
    const id = await alice.importMarkdown('# Roots\n\nOnly the fragment.\n');
    const writer = editor(id);
    const other = editor(id);
    await Promise.all([writer, other].map(synced));
    const live = server.svc.ctx.registry.get(id)!;
    const revision = live.revision;

    writer.doc.getMap('hidden').set('blob', 'x'.repeat(1024 * 1024));
    await waitFor(() => writer.closes.length > 0, 'refusal');
    expect(writer.closes[0]).toEqual({ code: 4422, reason: 'update refused: content outside the prosemirror fragment (root "hidden")' });

    // The other editor goes on; its change arrives, the hidden root never does.
    const blockId = editorBlocks(other)[1]!.id as string;
    typeInto(other, blockId, 0, 'Still ');
    await waitFor(() => live.revision > revision, 'the other editor stored');
    expect(await alice.content(id)).toBe('# Roots\n\nStill Only the fragment.\n');
    expect(live.doc.share.has('hidden')).toBe(false);
    expect(other.doc.share.has('hidden')).toBe(false);
    // A new editor gets the journal without it.
    const late = editor(id);
    await synced(late);
    expect(editorBlocks(late)[1]!.text).toBe('Still Only the fragment.');
    expect(late.doc.getMap('hidden').size).toBe(0);
  });
});
