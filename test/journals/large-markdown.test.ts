import { expect, it } from 'vitest';
import { blocksToMarkdown, markdownToDoc } from '../../shared/markdown/index.ts';
import { generateMarkdown } from '../../bench/markdown.ts';
import { Client, serverSuite } from '../helpers/server.ts';

let c: Client;
serverSuite({}, (_s, client) => {
  c = client;
});

/** What the service must answer for `md`, computed inline with the same pure converters. */
function expected(md: string): string {
  const blocks: ReturnType<typeof markdownToDoc>[] = [];
  markdownToDoc(md).forEach((b) => blocks.push(b));
  return blocksToMarkdown(blocks);
}

it('imports large journals through the worker and exports them with the same result as inline', async () => {
  const md = generateMarkdown(128 * 1024);
  const id = await c.importMarkdown(md);
  const model = await c.model(id);
  expect(model.model.content.length).toBeGreaterThan(1000);
  expect(await c.content(id)).toBe(expected(md));
});

it('keeps serving other requests while a large import converts', async () => {
  const md = generateMarkdown(384 * 1024);
  const order: string[] = [];
  const importing = c.importMarkdown(md).then(() => order.push('import'));
  // Let the import request reach the server and start converting before the small read is sent.
  await new Promise((r) => setTimeout(r, 100));
  const list = await c.get('/v1/journals/list');
  order.push('list');
  expect(list.status).toBe(200);
  await importing;
  expect(order).toEqual(['list', 'import']);
}, 60_000);
