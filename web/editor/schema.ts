/**
 * The journal schema of shared/schema.ts with how each node and mark is drawn and read back from
 * HTML (paste, shared/schema-dom.ts). Names, content expressions and attributes are the shared ones untouched: the
 * editor writes exactly the documents the service stores and checks. Raw HTML nodes are shown as
 * their source text, never interpreted; links and images keep only safe URL schemes.
 */
import { Schema, type MarkSpec, type NodeSpec } from 'prosemirror-model';
import { markDom, nodeDom } from '../../shared/schema-dom.ts';
import { schema as shared } from '../../shared/schema.ts';

export { safeHref, safeSrc } from '../../shared/schema-dom.ts';

function withDom<T extends NodeSpec | MarkSpec>(specs: { forEach(f: (name: string, spec: T) => void): void }, dom: Record<string, Partial<T>>): Record<string, T> {
  const out: Record<string, T> = {};
  specs.forEach((name, spec) => {
    out[name] = { ...spec, ...dom[name] };
  });
  return out;
}

export const editorSchema = new Schema({
  nodes: withDom<NodeSpec>(shared.spec.nodes, nodeDom),
  marks: withDom<MarkSpec>(shared.spec.marks, markDom),
});
