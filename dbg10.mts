import { toMarkdown } from 'mdast-util-to-markdown';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteralToMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemToMarkdown } from 'mdast-util-gfm-task-list-item';
const extensions = [gfmAutolinkLiteralToMarkdown(), gfmStrikethroughToMarkdown(), gfmTableToMarkdown({ tablePipeAlign: false }), gfmTaskListItemToMarkdown()];
const out: string[] = [];
for (let i = 0; i < 10000; i++) out.push(`Paragraph ${i} with *some* emphasis, a [link](https://example.com/${i}) and \`code\`.`);
const tree = fromMarkdown(out.join('\n\n'));
const SAFE = /^[A-Za-z0-9 ,]*$/;
for (let k = 0; k < 2; k++) {
  let t = performance.now();
  const a = tree.children.map((c) => toMarkdown({ type: 'root', children: [c] }, { extensions }));
  const withExt = performance.now() - t;
  t = performance.now();
  const b = tree.children.map((c) => toMarkdown({ type: 'root', children: [c] }, { extensions, handlers: { text: (node: any, _p: any, state: any, info: any) => SAFE.test(node.value) ? node.value : state.safe(node.value, info) } as any }));
  const fast = performance.now() - t;
  t = performance.now();
  const c = tree.children.map((c) => toMarkdown({ type: 'root', children: [c] }, {}));
  const noExt = performance.now() - t;
  console.log({ withExt, fast, noExt, same: a.join() === b.join() });
}
