// Worker thread for markdown conversion (see markdown-offload.ts). Plain JavaScript so that it
// starts under any loader; tsx is registered here to load the shared TypeScript converters.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { markdownToDoc, blocksToMarkdown } = await import('../../shared/markdown/index.ts');
const { schema } = await import('../../shared/schema.ts');
const { docToSnapshot } = await import('./snapshot.ts');
const { Node } = await import('prosemirror-model');

parentPort.on('message', ({ id, op, input }) => {
  try {
    if (op === 'import') {
      const snapshot = docToSnapshot(markdownToDoc(input));
      parentPort.postMessage({ id, result: snapshot }, [snapshot.buffer]);
    } else {
      parentPort.postMessage({ id, result: blocksToMarkdown(input.map((json) => Node.fromJSON(schema, json))) });
    }
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
