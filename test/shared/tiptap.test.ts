/**
 * shared/tiptap.ts: the Tiptap extensions make the journal schema itself (same node and mark
 * names, content expressions, attributes and defaults), and a journal with every block kind and
 * mark, as the service stores it, loads into a Tiptap schema unchanged.
 */
import { getSchema } from '@tiptap/core';
import { describe, expect, it } from 'vitest';
import { schema } from '../../shared/schema.ts';
import { JOURNAL_FIELD, journalExtensions } from '../../shared/tiptap.ts';
import { serverSuite, type Client } from '../helpers/server.ts';
import { EVERY_KIND } from './every-kind.ts';


/** Attribute name -> default. */
function defaults(attrs: Record<string, { default?: unknown }> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attrs ?? {}).map(([k, a]) => [k, a.default ?? null]));
}

let c: Client;
serverSuite({}, (_s, client) => {
  c = client;
});

describe('journal schema as Tiptap extensions', () => {
  const tiptap = getSchema(journalExtensions());

  it('defines every node and mark with the same names, content and attributes', () => {
    expect(JOURNAL_FIELD).toBe('prosemirror');
    expect(Object.keys(tiptap.nodes).sort()).toEqual(Object.keys(schema.nodes).sort());
    expect(Object.keys(tiptap.marks).sort()).toEqual(Object.keys(schema.marks).sort());
    expect(tiptap.topNodeType.name).toBe('doc');
    for (const [name, type] of Object.entries(schema.nodes)) {
      const t = tiptap.nodes[name]!;
      expect(t.spec.content ?? '', name).toBe(type.spec.content ?? '');
      expect(t.spec.group ?? '', name).toBe(type.spec.group ?? '');
      expect(!!t.spec.inline, name).toBe(!!type.spec.inline);
      expect(!!t.spec.atom, name).toBe(!!type.spec.atom);
      expect(defaults(t.spec.attrs), name).toEqual(defaults(type.spec.attrs));
    }
    for (const [name, type] of Object.entries(schema.marks)) {
      expect(defaults(tiptap.marks[name]!.spec.attrs), name).toEqual(defaults(type.spec.attrs));
    }
  });

  it('loads a journal with every block kind and mark, ids included, without dropping anything', async () => {
    const id = await c.importMarkdown(EVERY_KIND);
    const model = (await c.model(id)).model;
    const doc = tiptap.nodeFromJSON(model);
    doc.check(); // valid under the Tiptap schema's content expressions
    expect(doc.toJSON()).toEqual(model);
    const kinds = new Set<string>();
    const marks = new Set<string>();
    doc.descendants((n) => {
      kinds.add(n.type.name);
      for (const m of n.marks) marks.add(m.type.name);
      for (const m of (n.attrs.marks as { type: string }[] | null) ?? []) marks.add(m.type);
    });
    expect([...kinds].sort()).toEqual(Object.keys(schema.nodes).filter((n) => n !== 'doc').sort());
    expect([...marks].sort()).toEqual(Object.keys(schema.marks).sort());
    doc.forEach((block) => expect(typeof block.attrs.id, block.type.name).toBe('string'));
  });
});
