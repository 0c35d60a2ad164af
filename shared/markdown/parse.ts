/**
 * Markdown -> ProseMirror: markdown-it (CommonMark + GFM tables and strikethrough, with our GFM
 * task-list and autolink-literal plugins) tokenizes, and one pass over its flat token stream
 * builds the journal schema's nodes. Pure; runs in Node and in browsers.
 *
 * markdown-it is linear in practice and parses 10-30x faster than micromark/mdast here.
 * Its defaults are set aside where they change what the text says: every link destination is
 * kept as written (no URL normalisation, no protocol filter: the service stores markdown, it
 * does not render it), and raw HTML is on. The schema has no footnote node: `[^1]` calls and
 * `[^1]: …` definitions are kept verbatim as raw HTML nodes (footnotes.ts).
 */
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { Mark, type Node } from 'prosemirror-model';
import { schema } from '../schema.ts';
import { newBlockId } from '../ids.ts';
import {
  LINK_EXPANSION_ALLOWANCE,
  MAX_FOOTNOTE_CALLS,
  MAX_FOOTNOTE_DEFINITIONS,
  MAX_LIST_ITEMS,
  MAX_NESTING_DEPTH,
  MAX_TABLE_CELLS,
  MAX_TABLE_COLUMNS,
} from '../limits.ts';
import { gfmPlugin } from './gfm.ts';
import { footnotePlugin } from './footnotes.ts';

/** Markdown that goes past a documented limit (nesting depth, shapes). The message names the limit. */
export class MarkdownLimitError extends Error {
  override readonly name = 'MarkdownLimitError';
}

const tooDeep = () =>
  new MarkdownLimitError(`markdown is nested too deeply: at most ${MAX_NESTING_DEPTH} levels of blocks (quotes, lists) and ${MAX_NESTING_DEPTH} of inline markup are allowed`);

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * What one parse has made so far, against the shape limits of shared/limits.ts. One per parse:
 * the block builder and the inline builder share it.
 */
class Shape {
  tableCells = 0;
  rowCells = 0;
  /** Items of each open list, innermost last. */
  readonly listItems: number[] = [];
  footnoteDefinitions = 0;
  footnoteCalls = 0;
  /** Bytes of link destinations and titles left before the expansion limit. */
  linkBytesLeft: number;

  constructor(sourceLength: number) {
    this.linkBytesLeft = sourceLength + LINK_EXPANSION_ALLOWANCE;
  }

  cell(): void {
    if (++this.rowCells > MAX_TABLE_COLUMNS) throw new MarkdownLimitError(`a table has too many columns: at most ${fmt(MAX_TABLE_COLUMNS)} are allowed`);
    if (++this.tableCells > MAX_TABLE_CELLS) throw new MarkdownLimitError(`a table has too many cells: at most ${fmt(MAX_TABLE_CELLS)} per table are allowed`);
  }

  item(): void {
    const k = this.listItems.length - 1;
    if (k >= 0 && ++this.listItems[k]! > MAX_LIST_ITEMS) throw new MarkdownLimitError(`a list has too many items: at most ${fmt(MAX_LIST_ITEMS)} per list are allowed`);
  }

  footnoteDefinition(): void {
    if (++this.footnoteDefinitions > MAX_FOOTNOTE_DEFINITIONS) {
      throw new MarkdownLimitError(`too many footnote definitions: at most ${fmt(MAX_FOOTNOTE_DEFINITIONS)} per text are allowed`);
    }
  }

  footnoteCall(): void {
    if (++this.footnoteCalls > MAX_FOOTNOTE_CALLS) throw new MarkdownLimitError(`too many footnote calls: at most ${fmt(MAX_FOOTNOTE_CALLS)} per text are allowed`);
  }

  /** `bytes` more of link destinations and titles are stored. */
  linkBytes(bytes: number): void {
    this.linkBytesLeft -= bytes;
    if (this.linkBytesLeft < 0) {
      throw new MarkdownLimitError(
        `links expand too much: the link destinations and titles stored (each time a link or reference is used) may total the text's own length plus ${fmt(LINK_EXPANSION_ALLOWANCE)} bytes`,
      );
    }
  }
}

/** Bytes of the link marks' destinations and titles in `marks`. */
function linkBytesOf(marks: readonly Mark[]): number {
  let n = 0;
  for (const m of marks) {
    if (m.type.name === 'link') n += String(m.attrs.href ?? '').length + String(m.attrs.title ?? '').length;
  }
  return n;
}

const md = new MarkdownIt('default', {
  html: true,
  linkify: false,
  typographer: false,
  // Past its own limit markdown-it silently stops nesting; ours must be reached first, to refuse.
  maxNesting: MAX_NESTING_DEPTH + 5,
});
md.validateLink = () => true;
md.normalizeLink = (url) => url;
md.normalizeLinkText = (text) => text;
md.use(footnotePlugin).use(gfmPlugin);

/** The markdown-it tokens of `markdown`, with our GFM plugins. */
export function tokenize(markdown: string): Token[] {
  return md.parse(markdown, {});
}

export interface ParseOptions {
  /** Source of block ids; defaults to `newBlockId`. */
  newId?: () => string;
  /**
   * The document of `markdown` from `parseMarkdown`, when it was parsed elsewhere (a worker).
   * Consumed: block ids are written into it.
   */
  tree?: ParsedMarkdown;
}

const n = schema.nodes;
const CODE = schema.marks.code!.create();
const attr = (t: Token, name: string): string | null => {
  if (!t.attrs) return null;
  for (const [k, v] of t.attrs) if (k === name) return String(v);
  return null;
};
const ALIGN = /text-align:(left|right|center)/;

/** Element of the block stack: the node type and attributes being built, and its children. */
interface Frame {
  type: string;
  attrs: Record<string, unknown>;
  children: Node[];
}

/** Builds blocks from the token stream; `newId` of null leaves ids null (filled in later). */
class Builder {
  private readonly stack: Frame[] = [{ type: 'doc', attrs: {}, children: [] }];

  constructor(
    private readonly newId: (() => string) | null,
    private readonly shape: Shape,
  ) {}

  private id(): string | null {
    return this.newId ? this.newId() : null;
  }

  private open(type: string, attrs: Record<string, unknown>): void {
    if (this.stack.length > MAX_NESTING_DEPTH) throw tooDeep();
    this.stack.push({ type, attrs, children: [] });
  }

  private close(): void {
    const frame = this.stack.pop()!;
    this.add(n[frame.type]!.create(frame.attrs, frame.children));
  }

  private add(node: Node): void {
    this.stack[this.stack.length - 1]!.children.push(node);
  }

  run(tokens: readonly Token[]): Node {
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      switch (t.type) {
        case 'paragraph_open':
          this.open('paragraph', { id: this.id() });
          break;
        case 'heading_open':
          this.open('heading', { id: this.id(), level: Number(t.tag.slice(1)) });
          break;
        case 'blockquote_open':
          this.open('blockquote', { id: this.id() });
          break;
        case 'bullet_list_open':
          this.open('bullet_list', { id: this.id(), tight: isTight(tokens, i) });
          this.shape.listItems.push(0);
          break;
        case 'ordered_list_open':
          this.open('ordered_list', { id: this.id(), order: Number(attr(t, 'start') ?? 1), tight: isTight(tokens, i) });
          this.shape.listItems.push(0);
          break;
        case 'list_item_open': {
          this.shape.item();
          const checked = (t.meta as { checked?: boolean } | null)?.checked;
          this.open('list_item', { id: this.id(), checked: typeof checked === 'boolean' ? checked : null });
          break;
        }
        case 'table_open':
          this.open('table', { id: this.id() });
          this.shape.tableCells = 0;
          break;
        case 'tr_open':
          this.open('table_row', {});
          this.shape.rowCells = 0;
          break;
        case 'th_open':
        case 'td_open':
          this.shape.cell();
          this.open(t.type === 'th_open' ? 'table_header' : 'table_cell', { align: ALIGN.exec(attr(t, 'style') ?? '')?.[1] ?? null });
          break;
        case 'bullet_list_close':
        case 'ordered_list_close':
          this.shape.listItems.pop();
          this.close();
          break;
        case 'paragraph_close':
        case 'heading_close':
        case 'blockquote_close':
        case 'list_item_close':
        case 'table_close':
        case 'tr_close':
        case 'th_close':
        case 'td_close':
          this.close();
          break;
        case 'inline':
          inlineBuilder.run(t.children ?? [], this.stack[this.stack.length - 1]!.children, this.shape);
          break;
        case 'fence':
        case 'code_block': {
          const info = t.info.trim();
          const space = info.search(/\s/);
          const text = t.content.endsWith('\n') ? t.content.slice(0, -1) : t.content;
          this.add(
            n.code_block!.create(
              {
                id: this.id(),
                language: (space === -1 ? info : info.slice(0, space)) || null,
                meta: space === -1 ? null : info.slice(space).trim() || null,
              },
              text ? schema.text(text) : null,
            ),
          );
          break;
        }
        case 'hr':
          this.add(n.horizontal_rule!.create({ id: this.id() }));
          break;
        case 'html_block':
          if ((t.meta as { footnote?: string } | null)?.footnote === 'definition') this.shape.footnoteDefinition();
          this.add(n.html_block!.create({ id: this.id(), html: t.content.replace(/\n+$/, '') }));
          break;
        default:
          // thead/tbody and the like carry no content of their own.
          break;
      }
    }
    const blocks = this.stack[0]!.children;
    if (blocks.length === 0) blocks.push(n.paragraph!.create({ id: this.id() }));
    return n.doc!.create(null, blocks);
  }
}

/**
 * markdown-it marks a tight list by hiding its items' paragraphs. CommonMark: a list is loose
 * when items, or blocks inside an item, are separated by blank lines.
 */
function isTight(tokens: readonly Token[], open: number): boolean {
  const level = tokens[open]!.level;
  for (let i = open + 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.level === level && t.nesting === -1) return true;
    if (t.type === 'paragraph_open' && t.level === level + 2) return t.hidden;
  }
  return true;
}

const MARK_OF: Record<string, string> = { em_open: 'em', strong_open: 'strong', s_open: 'strikethrough' };
/** Marks without attributes are values: made once. */
const SIMPLE_MARKS: Record<string, Mark> = {
  em: schema.marks.em!.create(),
  strong: schema.marks.strong!.create(),
  strikethrough: schema.marks.strikethrough!.create(),
};
const CLOSE_OF: Record<string, string> = { em_close: 'em', strong_close: 'strong', s_close: 'strikethrough' };

const NESTED_TAG: Record<string, string> = { em: 'em', strong: 'strong', strikethrough: 'del' };

/**
 * Inline tokens to inline nodes. Marks form a set; emphasis, strong or strikethrough inside the
 * same kind (`*a *b* c*`) cannot be a second mark, so the inner level is a pair of `html_inline`
 * tags marked `nested`, which the serializer prints back as markdown delimiters. Atoms carry
 * their marks in their `marks` attribute (see schema.ts). A class rather than closures: this
 * runs once per token of the document.
 */
class Inlines {
  /** Open marks and nested tags, innermost last; `mark` is null for a nested tag. */
  private opens: { name: string; mark: Mark | null }[] = [];
  private set: readonly Mark[] = [];
  private text = '';
  private out: Node[] = [];
  private shape!: Shape;
  /** Link bytes of `set`, stored again with each text run or atom made under it. */
  private setLinkBytes = 0;

  run(tokens: readonly Token[], out: Node[], shape: Shape): void {
    this.opens = [];
    this.set = Mark.none;
    this.setLinkBytes = 0;
    this.text = '';
    this.out = out;
    this.shape = shape;
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
      switch (t.type) {
        case 'text':
          this.text += t.content;
          break;
        case 'softbreak':
          this.text += '\n';
          break;
        case 'code_inline':
          this.flush();
          if (t.content) out.push(schema.text(t.content, CODE.addToSet(this.set)));
          break;
        case 'hardbreak':
          this.flush();
          out.push(n.hard_break!.create({ marks: this.atomMarks() }));
          break;
        case 'html_inline':
          this.flush();
          if ((t.meta as { footnote?: string } | null)?.footnote === 'call') this.shape.footnoteCall();
          out.push(n.html_inline!.create({ html: t.content, marks: this.atomMarks() }));
          break;
        case 'image':
          this.flush();
          this.shape.linkBytes((attr(t, 'src') ?? '').length + (attr(t, 'title') ?? '').length);
          out.push(n.image!.create({ src: attr(t, 'src') ?? '', alt: altText(t.children ?? []), title: attr(t, 'title'), marks: this.atomMarks() }));
          break;
        case 'link_open':
          this.flush();
          this.open('link', schema.marks.link!.create({ href: attr(t, 'href') ?? '', title: attr(t, 'title') }));
          break;
        case 'link_close':
          // A link with no content: an empty html_inline carries it (it prints as nothing).
          if (tokens[k - 1]!.type === 'link_open') out.push(n.html_inline!.create({ html: '', marks: this.atomMarks() }));
          this.flush();
          this.close('link');
          break;
        default: {
          const opened = MARK_OF[t.type];
          if (opened) {
            this.flush();
            this.open(opened, SIMPLE_MARKS[opened]!);
            break;
          }
          const closed = CLOSE_OF[t.type];
          if (closed) {
            this.flush();
            this.close(closed);
          }
        }
      }
    }
    this.flush();
  }

  private flush(): void {
    if (this.text) {
      if (this.setLinkBytes) this.shape.linkBytes(this.setLinkBytes);
      this.out.push(schema.text(this.text, this.set));
    }
    this.text = '';
  }

  private setMarks(set: readonly Mark[]): void {
    this.set = set;
    this.setLinkBytes = linkBytesOf(set);
  }

  private open(name: string, mark: Mark): void {
    if (this.opens.length >= MAX_NESTING_DEPTH) throw tooDeep();
    if (mark.isInSet(this.set) && NESTED_TAG[name]) {
      this.out.push(n.html_inline!.create({ html: `<${NESTED_TAG[name]}>`, nested: 'open', marks: this.atomMarks() }));
      this.opens.push({ name, mark: null });
      return;
    }
    this.opens.push({ name, mark });
    this.setMarks(mark.addToSet(this.set));
  }

  private close(name: string): void {
    for (let k = this.opens.length - 1; k >= 0; k--) {
      const entry = this.opens[k]!;
      if (entry.name !== name) continue;
      this.opens.splice(k, 1);
      if (entry.mark === null) {
        this.out.push(n.html_inline!.create({ html: `</${NESTED_TAG[name]}>`, nested: 'close', marks: this.atomMarks() }));
        return;
      }
      let set: readonly Mark[] = Mark.none;
      for (const o of this.opens) if (o.mark) set = o.mark.addToSet(set);
      this.setMarks(set);
      return;
    }
  }

  private atomMarks(): unknown[] | null {
    if (this.setLinkBytes) this.shape.linkBytes(this.setLinkBytes);
    return this.set.length ? this.set.map(markJSON) : null;
  }
}

const markJSON = (m: Mark): unknown => m.toJSON();
const inlineBuilder = new Inlines();

/** An image's alt text: the plain text of its description, as HTML renderers write it. */
function altText(tokens: readonly Token[]): string {
  let s = '';
  for (const t of tokens) {
    if (t.type === 'text' || t.type === 'code_inline') s += t.content;
    else if (t.type === 'image') s += altText(t.children ?? []);
    else if (t.type === 'softbreak' || t.type === 'hardbreak') s += '\n';
  }
  return s;
}

/**
 * The document of `markdown` with null block ids: what a worker parses ahead and sends back as
 * JSON, for `markdownToDoc(markdown, { tree })` to give ids on the main thread.
 */
export type ParsedMarkdown = ReturnType<Node['toJSON']>;

export function parseMarkdown(markdown: string): ParsedMarkdown {
  return new Builder(null, new Shape(markdown.length)).run(tokenize(markdown)).toJSON();
}

/**
 * Block nodes from JSON, with fresh ids written into the JSON itself (it is consumed: each use
 * needs its own copy). Depth is bounded by the nesting limit; inline content is not walked.
 */
function withIds(json: ParsedMarkdown, newId: () => string): Node {
  const fill = (j: Record<string, unknown>): void => {
    const attrs = j.attrs as Record<string, unknown> | undefined;
    if (attrs && 'id' in attrs) attrs.id = newId();
    const content = j.content as Record<string, unknown>[] | undefined;
    if (content && j.type !== 'paragraph' && j.type !== 'heading') for (const c of content) fill(c);
  };
  fill(json as Record<string, unknown>);
  return schema.nodeFromJSON(json);
}

/**
 * Parse markdown into a `doc` of the journal schema. Every block gets a fresh id; an empty input
 * yields one empty paragraph (the schema requires at least one block). Throws MarkdownLimitError
 * past the nesting limit.
 */
export function markdownToDoc(markdown: string, opts?: ParseOptions): Node {
  const newId = opts?.newId ?? newBlockId;
  if (opts?.tree) return withIds(opts.tree, newId);
  return new Builder(newId, new Shape(markdown.length)).run(tokenize(markdown));
}
