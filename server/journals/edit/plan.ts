/**
 * Plans an edit without touching the document: each operation is checked against a virtual view
 * of the journal (the live document plus the effects of the earlier operations of the same call),
 * so `atomic` and `dry_run` need no rollback and the real application cannot fail half-way.
 * The view only materializes what the operations touch: its cost follows the operations, not the
 * size of the journal.
 */
import type { Node as PMNode } from 'prosemirror-model';
import * as Y from 'yjs';
import { BLOCK_NODE_TYPES, schema } from '../../../shared/schema.ts';
import type { LiveJournal } from '../live.ts';
import type { EditNodeType, EditOperation } from './operations.ts';
import { MarkdownLimitError, parseMarkdown } from '../../../shared/markdown/index.ts';
import { INLINE_PARSE_CHARS, ParsedTexts } from '../markdown-offload.ts';
import { buildBlocks, ContentError, type BuildContext } from './payloads.ts';
import { MAX_EDIT_ELEMENTS, MAX_EDIT_TEXT_RUNS } from '../../../shared/limits.ts';
import { invalid } from '../../http/errors.ts';

export type Action =
  | { kind: 'insert'; nodes: PMNode[]; refId: string | null; position: 'before' | 'after' }
  | { kind: 'update'; id: string; node: PMNode }
  | { kind: 'delete'; id: string };

export interface OperationResult {
  operation: string;
  success: boolean;
  error: string;
  data: { created: boolean; nodeId: string; nodeIds: string[]; updated: string; deleted: string };
}

export interface EditPlan {
  results: OperationResult[];
  actions: Action[];
  failed: number;
  /** Top-level block count after the plan; 0 means the apply step adds an empty paragraph. */
  topLevelCount: number;
}

interface BlockInfo {
  type: string;
  parentId: string | null;
}
interface Child {
  id: string | null;
  type: string;
}

class OperationFailed extends Error {}

class VirtualJournal {
  private readonly deleted = new Set<string>();
  private readonly created = new Map<string, BlockInfo & { node: PMNode }>();
  private readonly childLists = new Map<string, Child[]>();
  topLevelCount: number;

  constructor(private readonly live: LiveJournal) {
    this.topLevelCount = live.fragment.length;
  }

  info(id: string): BlockInfo | undefined {
    if (this.deleted.has(id)) return undefined;
    const c = this.created.get(id);
    if (c) return c;
    const el = this.live.blocks.find(id);
    // Elements the schema does not know (an editor can write any) are not blocks REST can address.
    if (!el || !BLOCK_NODE_TYPES.has(el.nodeName)) return undefined;
    const parent = el.parent;
    if (!(parent instanceof Y.XmlElement)) return { type: el.nodeName, parentId: null };
    const parentId = parent.getAttribute('id');
    // Nor is a block inside such an element, or under a parent without an id.
    if (!BLOCK_NODE_TYPES.has(parent.nodeName) || typeof parentId !== 'string' || this.live.blocks.find(parentId) !== parent) return undefined;
    return { type: el.nodeName, parentId };
  }

  taken(id: string): boolean {
    return this.created.has(id) || (!this.deleted.has(id) && this.live.blocks.find(id) !== undefined);
  }

  private children(parentId: string): Child[] {
    let list = this.childLists.get(parentId);
    if (list) return list;
    list = [];
    const c = this.created.get(parentId);
    if (c) {
      c.node.forEach((child) => list!.push({ id: (child.attrs.id as string | null) ?? null, type: child.type.name }));
    } else {
      const el = this.live.blocks.find(parentId)!;
      for (let ch = el.firstChild; ch; ch = ch.nextSibling) {
        if (ch instanceof Y.XmlElement) list.push({ id: (ch.getAttribute('id') as string) ?? null, type: ch.nodeName });
      }
    }
    this.childLists.set(parentId, list);
    return list;
  }

  /** Checks that `parentId` may hold `list` as its children; throws OperationFailed otherwise. */
  private checkContent(parentId: string, list: Child[], what: string): void {
    const parentType = schema.nodes[this.info(parentId)!.type]!;
    let match: ReturnType<typeof parentType.contentMatch.matchType> = parentType.contentMatch;
    for (const c of list) {
      const type = Object.hasOwn(schema.nodes, c.type) ? schema.nodes[c.type] : undefined;
      match = type ? (match?.matchType(type) ?? null) : null;
      if (!match) break;
    }
    if (!match || !match.validEnd) {
      throw new OperationFailed(`${what}: a ${parentType.name} holds ${parentType.spec.content}`);
    }
  }

  private checkTopLevel(nodes: PMNode[]): void {
    for (const n of nodes) {
      if (!n.type.isInGroup('block')) {
        throw new OperationFailed(`a ${n.type.name} cannot stand at the top level of a journal; place it next to another ${n.type.name}`);
      }
    }
  }

  insert(nodes: PMNode[], refId: string | null, position: 'before' | 'after'): void {
    let parentId: string | null = null;
    if (refId !== null) {
      const ref = this.info(refId);
      if (!ref) throw new OperationFailed(`no block with id ${JSON.stringify(refId)} in this journal`);
      parentId = ref.parentId;
    }
    if (parentId === null) {
      this.checkTopLevel(nodes);
      this.topLevelCount += nodes.length;
    } else {
      const list = [...this.children(parentId)];
      const at = list.findIndex((c) => c.id === refId) + (position === 'after' ? 1 : 0);
      list.splice(at, 0, ...nodes.map((n) => ({ id: n.attrs.id as string, type: n.type.name })));
      this.checkContent(parentId, list, `cannot place ${nodes.map((n) => n.type.name).join(', ')} there`);
      this.childLists.set(parentId, list);
    }
    for (const n of nodes) this.addCreated(n, parentId);
  }

  update(id: string, node: PMNode): void {
    const target = this.info(id)!;
    if (target.type !== node.type.name) {
      if (target.parentId === null) this.checkTopLevel([node]);
      else {
        const list = this.children(target.parentId).map((c) => (c.id === id ? { id, type: node.type.name } : c));
        this.checkContent(target.parentId, list, `cannot turn this ${target.type} into a ${node.type.name} here`);
        this.childLists.set(target.parentId, list);
      }
    }
    this.removeDescendants(id);
    this.created.set(id, { ...target, type: node.type.name, node });
    node.forEach((child) => this.addCreated(child, id));
  }

  delete(id: string): void {
    const target = this.info(id)!;
    if (target.parentId === null) this.topLevelCount--;
    else {
      const list = this.children(target.parentId).filter((c) => c.id !== id);
      this.checkContent(target.parentId, list, `cannot delete the last ${target.type} of its ${this.info(target.parentId)!.type}; delete the ${this.info(target.parentId)!.type} instead`);
      this.childLists.set(target.parentId, list);
    }
    this.removeDescendants(id);
    this.created.delete(id);
    this.deleted.add(id);
  }

  private addCreated(node: PMNode, parentId: string | null): void {
    const id = node.attrs.id as string | undefined;
    if (BLOCK_NODE_TYPES.has(node.type.name) && id) {
      this.created.set(id, { type: node.type.name, parentId, node });
      this.deleted.delete(id);
      parentId = id;
    }
    node.forEach((child) => this.addCreated(child, parentId));
  }

  private removeDescendants(id: string): void {
    const c = this.created.get(id);
    this.childLists.delete(id);
    if (c) {
      c.node.descendants((d) => {
        const did = d.attrs.id as string | undefined;
        if (did) {
          this.created.delete(did);
          this.deleted.add(did);
          this.childLists.delete(did);
        }
      });
      return;
    }
    const el = this.live.blocks.find(id);
    if (!el) return;
    const walk = (p: Y.XmlElement): void => {
      for (let ch = p.firstChild; ch; ch = ch.nextSibling) {
        if (!(ch instanceof Y.XmlElement)) continue;
        const did = ch.getAttribute('id');
        if (typeof did === 'string') {
          this.deleted.add(did);
          this.created.delete(did);
          this.childLists.delete(did);
        }
        walk(ch);
      }
    };
    walk(el);
  }
}

/**
 * Counts what an edit builds against MAX_EDIT_ELEMENTS and MAX_EDIT_TEXT_RUNS: its blocks are
 * applied to the live document in one Yjs transaction on the main thread, whose cost follows
 * these counts. Past either, the whole request is a 422 naming the limit (dry runs too).
 */
class EditSize {
  elements = 0;
  textRuns = 0;

  add(nodes: readonly PMNode[], opIndex: number): void {
    for (const node of nodes) {
      this.elements++;
      node.descendants((d) => {
        if (d.isText) this.textRuns++;
        else this.elements++;
        // Text holds no nodes; paragraphs hold only inline ones.
        return !d.isText;
      });
    }
    const fmt = (n: number) => n.toLocaleString('en-US');
    if (this.elements > MAX_EDIT_ELEMENTS || this.textRuns > MAX_EDIT_TEXT_RUNS) {
      throw invalid(
        ['body', 'operations', opIndex],
        `the edit builds too much at once: at most ${fmt(MAX_EDIT_ELEMENTS)} elements (blocks, list items, table rows and cells, images, breaks, raw HTML) and ${fmt(MAX_EDIT_TEXT_RUNS)} text runs per edit; split it into several edits, or import the markdown as a new journal`,
        'value_error.edit_limit',
      );
    }
  }
}

const emptyData = () => ({ created: false, nodeId: '', nodeIds: [] as string[], updated: '', deleted: '' });

/** Planning work between two turns of the event loop. */
export const PLAN_SLICE_MS = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Plans every operation in order. Shape errors in payloads throw a 422 (ValidationError) out of
 * here, before anything is applied; content errors fail only their operation. `trees` holds the
 * operations' markdown parsed ahead (JournalService.prepareEdit); a short text missing from it
 * (its target block changed kind meanwhile) is parsed here, a long one fails its operation.
 *
 * Building the blocks of many operations costs main-thread time in proportion to their content
 * (every inline node is made), so the plan yields to the event loop every PLAN_SLICE_MS, between
 * operations, after building a large one, and before it returns. The caller runs it inside the
 * journal's settled task: nothing changes the document meanwhile.
 */
export async function planEdit(
  live: LiveJournal,
  ops: EditOperation[],
  newBlockId: () => string,
  trees: ParsedTexts = new ParsedTexts(),
): Promise<EditPlan> {
  const view = new VirtualJournal(live);
  const ctx: BuildContext = {
    newId() {
      let id: string;
      do id = newBlockId();
      while (view.taken(id));
      return id;
    },
    tree(markdown) {
      const root = trees.get(markdown);
      if (root) return root;
      if (markdown.length <= INLINE_PARSE_CHARS) return parseMarkdown(markdown);
      throw new ContentError('the target block changed while this edit was being prepared; send the operation again');
    },
  };
  const results: OperationResult[] = [];
  const actions: Action[] = [];
  const size = new EditSize();
  let sliceStart = performance.now();
  const yieldAfterSlice = async () => {
    if (performance.now() - sliceStart <= PLAN_SLICE_MS) return;
    await nextTurn();
    sliceStart = performance.now();
  };
  for (let i = 0; i < ops.length; i++) {
    await yieldAfterSlice();
    const op = ops[i]!;
    const loc = ['body', 'operations', i, 'params'];
    const result: OperationResult = { operation: op.type, success: true, error: '', data: emptyData() };
    try {
      if (op.type === 'create_node') {
        const nodes = buildOrFail(op.nodeType, op.params, loc, ctx);
        size.add(nodes, i);
        await yieldAfterSlice(); // one operation may build thousands of blocks
        const refId = op.referenceId ?? null;
        view.insert(nodes, refId, op.position);
        actions.push({ kind: 'insert', nodes, refId, position: op.position });
        const ids = nodes.map((n) => n.attrs.id as string);
        result.data = { ...emptyData(), created: true, nodeId: ids[0] ?? '', nodeIds: ids };
      } else if (op.type === 'update_node') {
        const target = view.info(op.nodeId);
        if (!target) throw new OperationFailed(`no block with id ${JSON.stringify(op.nodeId)} in this journal`);
        const nodeType = op.nodeType ?? editTypeOf(target.type);
        const nodes = buildOrFail(nodeType, op.params, loc, ctx);
        size.add(nodes, i);
        if (nodes.length !== 1) throw new OperationFailed(`update_node replaces one block; the payload made ${nodes.length}`);
        const node = nodes[0]!.type.create({ ...nodes[0]!.attrs, id: op.nodeId }, nodes[0]!.content, nodes[0]!.marks);
        view.update(op.nodeId, node);
        actions.push({ kind: 'update', id: op.nodeId, node });
        result.data = { ...emptyData(), nodeId: op.nodeId, nodeIds: [op.nodeId], updated: op.nodeId };
      } else {
        if (!view.info(op.nodeId)) throw new OperationFailed(`no block with id ${JSON.stringify(op.nodeId)} in this journal`);
        view.delete(op.nodeId);
        actions.push({ kind: 'delete', id: op.nodeId });
        result.data = { ...emptyData(), nodeId: op.nodeId, nodeIds: [op.nodeId], deleted: op.nodeId };
      }
    } catch (err) {
      if (!(err instanceof OperationFailed)) throw err;
      result.success = false;
      result.error = err.message;
    }
    results.push(result);
  }
  // The caller applies the plan next, in one Yjs transaction: in a turn of its own.
  await yieldAfterSlice();
  return { results, actions, failed: results.filter((r) => !r.success).length, topLevelCount: view.topLevelCount };
}

function buildOrFail(nodeType: EditNodeType, params: unknown[], loc: (string | number)[], ctx: BuildContext): PMNode[] {
  try {
    return buildBlocks(nodeType, params, loc, ctx);
  } catch (err) {
    if (err instanceof ContentError || err instanceof MarkdownLimitError) throw new OperationFailed(err.message);
    throw err;
  }
}

/** The edit nodeType that rebuilds an existing block kind (update_node without nodeType). */
function editTypeOf(blockType: string): EditNodeType {
  return blockType as EditNodeType;
}
