/**
 * Random Yjs changes, valid or not, made by a stock y-websocket editor: whatever the server does
 * with them (applies them, or refuses the update and closes the connection), REST content, model,
 * edit and delete of the journal keep answering 200 with a valid document. Typed text and REST
 * code blocks hold NUL and the other C0 controls too (kept verbatim): content answers 200 whether
 * the journal is loaded or read cold, and the journal stays deletable.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { Node as PMNode } from 'prosemirror-model';
import * as Y from 'yjs';
import { schema } from '../../shared/schema.ts';
import { Client, serverSuite, type TestServer } from '../helpers/server.ts';
import { connectEditor, synced, waitFor } from '../realtime/helpers.ts';

let server: TestServer;
let c: Client;

serverSuite({}, (s, client) => {
  [server, c] = [s, client];
});

const NAMES = [...Object.keys(schema.nodes), 'div', '__proto__', 'constructor', ''];
const VALUES = [1, 1e9, -5, 'x', '', null, true, { href: 42 }, [1, 2]];
const MARKS = ['em', 'strong', 'link', 'code', 'bold', 'link--abcdefgh', '__proto__'];
/** Text with NUL and other C0 controls among ordinary and markdown characters. */
const CONTROL_CHARS = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u001b', '\u001f', '\t', '\n', '\r', 'a', '`', '*', ' '];
const controlText = fc.array(fc.constantFrom(...CONTROL_CHARS), { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));

type Command =
  | { kind: 'element'; at: number; name: string; attr: [string, unknown] | null }
  | { kind: 'text'; at: number; text: string; mark: string | null; value: unknown }
  | { kind: 'nest'; at: number; name: string; depth: number }
  | { kind: 'delete'; at: number }
  | { kind: 'embed'; at: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('element' as const),
    at: fc.nat(),
    name: fc.constantFrom(...NAMES),
    attr: fc.option(fc.tuple(fc.constantFrom('id', 'level', 'order', 'checked', 'tight', 'src', 'html'), fc.constantFrom(...VALUES))),
  }),
  fc.record({
    kind: fc.constant('text' as const),
    at: fc.nat(),
    text: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), controlText),
    mark: fc.option(fc.constantFrom(...MARKS)),
    value: fc.constantFrom(...VALUES),
  }),
  fc.record({ kind: fc.constant('nest' as const), at: fc.nat(), name: fc.constantFrom('blockquote', 'list_item', 'bullet_list', 'paragraph'), depth: fc.integer({ min: 1, max: 160 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('embed' as const), at: fc.nat() }),
);

/** Every container in the fragment (itself included), in document order; bounded walk. */
function containers(fragment: Y.XmlFragment): (Y.XmlFragment | Y.XmlElement | Y.XmlText)[] {
  const out: (Y.XmlFragment | Y.XmlElement | Y.XmlText)[] = [fragment];
  const stack: (Y.XmlFragment | Y.XmlElement)[] = [fragment];
  while (stack.length > 0 && out.length < 2000) {
    for (const child of stack.pop()!.toArray()) {
      if (child instanceof Y.XmlElement) {
        out.push(child);
        stack.push(child);
      } else if (child instanceof Y.XmlText) out.push(child);
    }
  }
  return out;
}

function apply(fragment: Y.XmlFragment, cmd: Command): void {
  const all = containers(fragment);
  const target = all[cmd.at % all.length]!;
  if (cmd.kind === 'delete') {
    if (target !== fragment && target.parent) {
      const parent = target.parent as Y.XmlFragment | Y.XmlElement;
      const index = parent.toArray().indexOf(target as never);
      if (index >= 0) parent.delete(index, 1);
    }
    return;
  }
  if (target instanceof Y.XmlText) {
    if (cmd.kind === 'text') target.insert(0, cmd.text, cmd.mark ? { [cmd.mark]: cmd.value } : {});
    if (cmd.kind === 'embed') target.insertEmbed(0, { image: 'x' });
    return;
  }
  if (cmd.kind === 'element') {
    const el = new Y.XmlElement(cmd.name || 'x');
    target.insert(target.length, [el]);
    if (cmd.attr) el.setAttribute(cmd.attr[0], cmd.attr[1] as never);
  } else if (cmd.kind === 'text' || cmd.kind === 'embed') {
    const t = new Y.XmlText();
    target.insert(target.length, [t]);
    if (cmd.kind === 'text') t.insert(0, cmd.text, cmd.mark ? { [cmd.mark]: cmd.value } : {});
    else t.insertEmbed(0, { image: 'x' });
  } else {
    let el: Y.XmlFragment | Y.XmlElement = target;
    for (let i = 0; i < cmd.depth; i++) {
      const child = new Y.XmlElement(cmd.name);
      el.insert(el.length, [child]);
      el = child;
    }
  }
}

function expectValidModel(model: unknown): void {
  expect(() => PMNode.fromJSON(schema, model).check()).not.toThrow();
}

it('random editor updates never break REST reads, edits or delete', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(command, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }), controlText, async (transactions, code) => {
      const id = await c.importMarkdown('# Fuzz\n\n- one\n- two\n\n> quote\n');
      const editor = connectEditor(server.url, id, { key: c.key! });
      try {
        await synced(editor);
        for (const tx of transactions) editor.doc.transact(() => tx.forEach((cmd) => apply(editor.fragment, cmd)));
        // Settled: the server holds everything the editor has, or it refused and closed the socket.
        await waitFor(() => {
          if (editor.closes.length > 0) return true;
          const live = server.svc.ctx.registry.get(id);
          if (!live) return false;
          return Buffer.from(Y.encodeStateVector(live.doc)).equals(Buffer.from(Y.encodeStateVector(editor.doc)));
        }, 'the server to take or refuse the updates');
      } finally {
        editor.destroy();
      }
      // Read cold as well as warm: the export of a journal holding NUL is printed again, never stored.
      for (const cold of [true, false]) {
        if (cold) server.svc.ctx.registry.evict(id, 'idle');
        expect((await c.get(`/v1/journals/content/${id}`)).status).toBe(200);
      }
      const model = await c.get(`/v1/journals/editor/model/${id}`);
      expect(model.status).toBe(200);
      expectValidModel(model.body.model);
      const content = await c.get(`/v1/journals/content/${id}`);
      expect(content.status).toBe(200);
      const edit = await c.edit(id, [
        { type: 'create_node', nodeType: 'paragraph', params: [{ content: 'after *fuzz*' }] },
        { type: 'create_node', nodeType: 'code_block', params: [{ content: code }] },
      ]);
      expect(edit.status).toBe(200);
      server.svc.ctx.registry.evict(id, 'idle');
      const read = await c.get(`/v1/journals/content/${id}`);
      expect(read.status).toBe(200);
      const after = read.body.content;
      expect(after).toContain('after *fuzz*');
      // Kept verbatim (line breaks aside: a code block's line endings are its lines).
      expect(after.replace(/[\r\n]/g, '')).toContain(code.replace(/[\r\n]/g, ''));
      server.svc.ctx.registry.evict(id, 'idle');
      expect((await c.del(`/v1/journals/editor/delete/${id}`)).status).toBe(200);
    }),
    { numRuns: 40 },
  );
}, 120_000);
