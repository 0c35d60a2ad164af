// Worker thread for markdown conversion (see markdown-offload.ts). Plain JavaScript so that it
// starts under any loader; tsx is registered here to load the shared TypeScript converters.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { markdownToDoc, blocksToMarkdown, parseMdast, checkNesting, MarkdownLimitError } = await import('../../shared/markdown/index.ts');
const { schema } = await import('../../shared/schema.ts');
const { docToSnapshot } = await import('./snapshot.ts');
const { Node } = await import('prosemirror-model');

/** mdast positions are not needed by the converter; dropping them halves what is copied back. */
function withoutPositions(root) {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    delete node.position;
    if (node.children) stack.push(...node.children);
  }
  return root;
}

parentPort.on('message', ({ op, input }) => {
  try {
    if (op === 'import') {
      const snapshot = docToSnapshot(markdownToDoc(input));
      parentPort.postMessage({ result: snapshot }, [snapshot.buffer]);
    } else if (op === 'parse') {
      const roots = input.map((text) => {
        const root = parseMdast(text);
        checkNesting(root);
        return withoutPositions(root);
      });
      parentPort.postMessage({ result: roots });
    } else {
      parentPort.postMessage({ result: blocksToMarkdown(input.map((json) => Node.fromJSON(schema, json))) });
    }
  } catch (err) {
    if (err instanceof MarkdownLimitError) parentPort.postMessage({ limit: err.message });
    else parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage('ready');
