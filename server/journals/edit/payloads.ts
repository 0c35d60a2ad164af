/**
 * Block payloads of create_node / update_node `params` turned into ProseMirror nodes of the
 * shared schema. `content` is markdown, parsed by the same converter as import; code and raw
 * HTML take their text verbatim. Positional forms: `[level, content]` for headings and
 * `[content]` for every other kind.
 */
import type { Node as PMNode } from 'prosemirror-model';
import * as z from 'zod';
import { markdownToDoc, type ParsedMarkdown } from '../../../shared/markdown/index.ts';
import { schema } from '../../../shared/schema.ts';
import { MAX_LIST_ITEMS, MAX_TABLE_CELLS, MAX_TABLE_COLUMNS } from '../../../shared/limits.ts';
import { invalid, parseOr422, type Loc } from '../../http/errors.ts';
import type { EditNodeType } from './operations.ts';

/** Content that is well-formed JSON but does not make the requested block. Fails one operation. */
export class ContentError extends Error {}

/** Block ids, and the parsed document of each markdown text (parsed ahead, off the event loop). */
export interface BuildContext {
  newId: () => string;
  tree: (markdown: string) => ParsedMarkdown;
}

const md = z.string().max(1024 * 1024, 'content is limited to 1 MiB of markdown');
const fmt = (n: number) => n.toLocaleString('en-US');
const listItems = <T extends z.ZodType>(item: T) =>
  z.array(item).min(1).max(MAX_LIST_ITEMS, `a list has too many items: at most ${fmt(MAX_LIST_ITEMS)} per list are allowed`);
const tableRows = z
  .array(z.array(md).min(1).max(MAX_TABLE_COLUMNS, `a table has too many columns: at most ${fmt(MAX_TABLE_COLUMNS)} are allowed`))
  .min(1)
  .max(MAX_TABLE_CELLS, `a table has too many cells: at most ${fmt(MAX_TABLE_CELLS)} per table are allowed`)
  .refine((rows) => rows.reduce((n, r) => n + r.length, 0) <= MAX_TABLE_CELLS, `a table has too many cells: at most ${fmt(MAX_TABLE_CELLS)} per table are allowed`);
const text = z.string().max(1024 * 1024);
const align = z.enum(['left', 'right', 'center']).nullable();

const payloadSchemas = {
  paragraph: z.object({ content: md.default('') }).strict(),
  heading: z.object({ level: z.number().int().min(1).max(6).default(1), content: md.default('') }).strict(),
  blockquote: z.object({ content: md.default('') }).strict(),
  bullet_list: z.object({ items: listItems(md).optional(), content: md.optional(), tight: z.boolean().optional() }).strict(),
  ordered_list: z
    .object({
      items: listItems(md).optional(),
      content: md.optional(),
      start: z.number().int().min(0).max(999_999_999).optional(),
      tight: z.boolean().optional(),
    })
    .strict(),
  task_list: z
    .object({
      items: listItems(z.union([md, z.object({ content: md, checked: z.boolean().default(false) }).strict()])).optional(),
      content: md.optional(),
      tight: z.boolean().optional(),
    })
    .strict(),
  list_item: z.object({ content: md.default(''), checked: z.boolean().nullable().default(null) }).strict(),
  code_block: z.object({ content: text.default(''), language: z.string().max(100).nullable().default(null) }).strict(),
  horizontal_rule: z.object({}).strict(),
  image: z.object({ src: z.string().min(1).max(4096), alt: z.string().max(4096).default(''), title: z.string().max(4096).nullable().default(null) }).strict(),
  table: z
    .object({
      rows: tableRows.optional(),
      align: z.array(align).max(MAX_TABLE_COLUMNS).optional(),
      content: md.optional(),
    })
    .strict(),
  html_block: z.object({ html: text.optional(), content: text.optional() }).strict(),
  markdown: z.object({ content: md }).strict(),
} satisfies Record<EditNodeType, z.ZodType>;

/** Normalizes positional params (`[level, content]`, `[content]`) to payload objects. */
function payloadObjects(nodeType: EditNodeType, params: unknown[], loc: Loc): unknown[] {
  if (params.length === 0) return [{}];
  if (params.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p))) return params;
  if (nodeType === 'heading' && typeof params[0] === 'number' && params.length <= 2) {
    return [{ level: params[0], content: params[1] ?? '' }];
  }
  if (params.length === 1 && typeof params[0] === 'string') {
    if (nodeType === 'image') return [{ src: params[0] }];
    if (nodeType === 'html_block') return [{ html: params[0] }];
    return [{ content: params[0] }];
  }
  const shape = nodeType === 'heading' ? '[level, content]' : '[content]';
  throw invalid(loc, `params must be block payload objects or the positional form ${shape}`);
}

/** Parses every payload of an operation's params into blocks. Shape errors throw a 422. */
export function buildBlocks(nodeType: EditNodeType, params: unknown[], loc: Loc, ctx: BuildContext): PMNode[] {
  const payloads = payloadObjects(nodeType, params, loc);
  const out: PMNode[] = [];
  payloads.forEach((p, i) => {
    const payload = parseOr422(payloadSchemas[nodeType], p, [...loc, i]);
    out.push(...buildFromPayload(nodeType, payload as never, ctx));
  });
  return out;
}

/**
 * The markdown texts an operation's payloads hold, so the edit route can parse them all ahead
 * (in a worker when they are large) before planning. Shape errors throw the plan's own 422.
 */
export function markdownTexts(nodeType: EditNodeType, params: unknown[], loc: Loc): string[] {
  const out: string[] = [];
  payloadObjects(nodeType, params, loc).forEach((p, i) => {
    const q = parseOr422(payloadSchemas[nodeType], p, [...loc, i]) as Record<string, unknown>;
    if (typeof q.content === 'string' && nodeType !== 'code_block' && nodeType !== 'html_block') out.push(q.content);
    for (const item of (q.items as (string | { content: string })[] | undefined) ?? []) {
      out.push(typeof item === 'string' ? item : item.content);
    }
    for (const row of (q.rows as string[][] | undefined) ?? []) out.push(...row);
  });
  return out;
}

function parseBlocks(markdown: string, ctx: BuildContext): PMNode[] {
  const doc = markdownToDoc(markdown, { newId: ctx.newId, tree: ctx.tree(markdown) });
  const blocks: PMNode[] = [];
  doc.forEach((b) => blocks.push(b));
  return blocks;
}

/** Inline markdown: must come out as at most one paragraph. */
function inlineContent(markdown: string, ctx: BuildContext, kind: string): PMNode['content'] {
  const blocks = parseBlocks(markdown, ctx);
  if (blocks.length === 1 && blocks[0]!.type === schema.nodes.paragraph) return blocks[0]!.content;
  throw new ContentError(
    `content of a ${kind} must be inline markdown (one paragraph); it parsed as ${blocks.map((b) => b.type.name).join(', ')}. Use nodeType "markdown" for block markdown.`,
  );
}

function single(markdown: string, ctx: BuildContext, accept: (b: PMNode) => boolean, kind: string): PMNode {
  const blocks = parseBlocks(markdown, ctx);
  if (blocks.length === 1 && accept(blocks[0]!)) return blocks[0]!;
  throw new ContentError(
    `content must be markdown for exactly one ${kind}; it parsed as ${blocks.map((b) => b.type.name).join(', ') || 'nothing'}`,
  );
}

function listItem(markdown: string, checked: boolean | null, ctx: BuildContext): PMNode {
  const blocks = parseBlocks(markdown, ctx);
  return schema.nodes.list_item!.create({ id: ctx.newId(), checked }, blocks);
}

function withAttrs(node: PMNode, attrs: Record<string, unknown>): PMNode {
  return node.type.create({ ...node.attrs, ...attrs }, node.content, node.marks);
}

type Payloads = { [K in EditNodeType]: z.output<(typeof payloadSchemas)[K]> };

function buildFromPayload<K extends EditNodeType>(nodeType: K, p: Payloads[K], ctx: BuildContext): PMNode[] {
  const n = schema.nodes;
  switch (nodeType) {
    case 'paragraph': {
      const q = p as Payloads['paragraph'];
      return [n.paragraph!.create({ id: ctx.newId() }, inlineContent(q.content, ctx, 'paragraph'))];
    }
    case 'heading': {
      const q = p as Payloads['heading'];
      return [n.heading!.create({ id: ctx.newId(), level: q.level }, inlineContent(q.content, ctx, 'heading'))];
    }
    case 'blockquote': {
      const q = p as Payloads['blockquote'];
      return [n.blockquote!.create({ id: ctx.newId() }, parseBlocks(q.content, ctx))];
    }
    case 'bullet_list':
    case 'ordered_list': {
      const q = p as Payloads['ordered_list'];
      const type = n[nodeType]!;
      let list: PMNode;
      if (q.items) {
        list = type.create({ id: ctx.newId() }, q.items.map((item) => listItem(item, null, ctx)));
      } else if (q.content !== undefined) {
        list = single(q.content, ctx, (b) => b.type === type, nodeType);
      } else {
        throw new ContentError(`${nodeType} needs "items" (markdown per item) or "content" (a markdown list)`);
      }
      const attrs: Record<string, unknown> = {};
      if (q.tight !== undefined) attrs.tight = q.tight;
      if (nodeType === 'ordered_list' && q.start !== undefined) attrs.order = q.start;
      return [withAttrs(list, attrs)];
    }
    case 'task_list': {
      const q = p as Payloads['task_list'];
      let list: PMNode;
      if (q.items) {
        const items = q.items.map((item) =>
          typeof item === 'string' ? listItem(item, false, ctx) : listItem(item.content, item.checked, ctx),
        );
        list = n.bullet_list!.create({ id: ctx.newId() }, items);
      } else if (q.content !== undefined) {
        list = single(
          q.content,
          ctx,
          (b) => b.type === n.bullet_list && allItems(b, (i) => i.attrs.checked !== null),
          'task list',
        );
      } else {
        throw new ContentError('task_list needs "items" or "content" (a markdown task list)');
      }
      return [q.tight === undefined ? list : withAttrs(list, { tight: q.tight })];
    }
    case 'list_item': {
      const q = p as Payloads['list_item'];
      return [listItem(q.content, q.checked, ctx)];
    }
    case 'code_block': {
      const q = p as Payloads['code_block'];
      return [n.code_block!.create({ id: ctx.newId(), language: q.language || null }, q.content ? schema.text(q.content) : null)];
    }
    case 'horizontal_rule':
      return [n.horizontal_rule!.create({ id: ctx.newId() })];
    case 'image': {
      const q = p as Payloads['image'];
      return [n.paragraph!.create({ id: ctx.newId() }, n.image!.create({ src: q.src, alt: q.alt, title: q.title }))];
    }
    case 'table': {
      const q = p as Payloads['table'];
      if (q.rows) return [tableFromRows(q.rows, q.align, ctx)];
      if (q.content !== undefined) return [single(q.content, ctx, (b) => b.type === n.table, 'table')];
      throw new ContentError('table needs "rows" (first row is the header) or "content" (a GFM table)');
    }
    case 'html_block': {
      const q = p as Payloads['html_block'];
      const html = q.html ?? q.content;
      if (html === undefined || html.trim() === '') throw new ContentError('html_block needs "html"');
      return [n.html_block!.create({ id: ctx.newId(), html })];
    }
    case 'markdown': {
      const q = p as Payloads['markdown'];
      return parseBlocks(q.content, ctx);
    }
  }
  throw new Error(`unhandled node type ${String(nodeType)}`);
}

function allItems(list: PMNode, pred: (item: PMNode) => boolean): boolean {
  let ok = true;
  list.forEach((item) => {
    ok &&= pred(item);
  });
  return ok;
}

function tableFromRows(rows: string[][], alignment: ('left' | 'right' | 'center' | null)[] | undefined, ctx: BuildContext): PMNode {
  const n = schema.nodes;
  const width = rows[0]!.length;
  if (rows.some((r) => r.length !== width)) throw new ContentError(`every table row needs ${width} cells, like the header row`);
  if (alignment && alignment.length !== width) throw new ContentError(`align needs one entry per column (${width})`);
  const tableRows = rows.map((cells, r) =>
    n.table_row!.create(
      null,
      cells.map((cell, c) =>
        (r === 0 ? n.table_header! : n.table_cell!).create(
          { align: alignment?.[c] ?? null },
          inlineContent(cell, ctx, 'table cell'),
        ),
      ),
    ),
  );
  return n.table!.create({ id: ctx.newId() }, tableRows);
}
