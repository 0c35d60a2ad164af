/**
 * Markdown conversions as worker tasks (server/workers/worker.mjs runs them; markdown-offload.ts
 * sends them). Each returns what the pool posts back, with the buffers it may transfer.
 */
import type * as Md from 'mdast';
import { Node } from 'prosemirror-model';
import { blocksToMarkdown, checkNesting, markdownToDoc, parseMdast } from '../../shared/markdown/index.ts';
import { schema } from '../../shared/schema.ts';
import { docToSnapshot } from './snapshot.ts';

type TaskResult<T> = { result: T; transfer?: ArrayBuffer[] };

/** The first Yjs state of a journal imported from `markdown`. */
export function importTask(markdown: string): TaskResult<Uint8Array> {
  const snapshot = docToSnapshot(markdownToDoc(markdown));
  return { result: snapshot, transfer: [snapshot.buffer as ArrayBuffer] };
}

/** mdast trees of `texts`, nesting checked, without positions (half of what is copied back). */
export function parseTask(texts: string[]): TaskResult<Md.Root[]> {
  return {
    result: texts.map((text) => {
      const root = parseMdast(text);
      checkNesting(root);
      return withoutPositions(root);
    }),
  };
}

export function printTask(blocks: unknown[]): TaskResult<string> {
  return { result: blocksToMarkdown(blocks.map((json) => Node.fromJSON(schema, json))) };
}

function withoutPositions(root: Md.Root): Md.Root {
  const stack: Md.Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    delete node.position;
    if ('children' in node) stack.push(...(node.children as Md.Nodes[]));
  }
  return root;
}
