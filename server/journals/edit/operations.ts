/**
 * Wire shapes of edit requests (DESIGN.md "Edit operations"). Shape errors are 422s for the
 * whole request, found before anything is applied; content that does not fit (unknown block id,
 * a block kind not allowed where it would go) fails only its own operation.
 */
import * as z from 'zod';
import { documentAs } from '../../http/documented.ts';
import { idText } from '../../http/text.ts';

export const MAX_OPERATIONS = 500;

export const NODE_TYPES = [
  'paragraph',
  'heading',
  'blockquote',
  'bullet_list',
  'ordered_list',
  'task_list',
  'list_item',
  'code_block',
  'horizontal_rule',
  'image',
  'table',
  'html_block',
  'markdown',
] as const;
export type EditNodeType = (typeof NODE_TYPES)[number];

const nodeType = z.enum(NODE_TYPES, {
  error: () => `nodeType must be one of: ${NODE_TYPES.join(', ')}`,
});
const blockId = z.string().min(1).max(64);

const createNode = z.object({
  type: z.literal('create_node'),
  nodeType,
  params: z.array(z.unknown()).default([]),
  referenceId: blockId.nullish(),
  position: z.enum(['before', 'after']).default('after'),
});

const updateNode = z.object({
  type: z.literal('update_node'),
  nodeId: blockId,
  nodeType: nodeType.optional(),
  params: z.array(z.unknown()).min(1, 'update_node needs one block payload in params'),
});

const deleteNode = z.object({
  type: z.literal('delete_node'),
  nodeId: blockId,
});

export type CreateNodeOp = z.output<typeof createNode>;
export type UpdateNodeOp = z.output<typeof updateNode>;
export type DeleteNodeOp = z.output<typeof deleteNode>;
export type EditOperation = CreateNodeOp | UpdateNodeOp | DeleteNodeOp;

const OP_SCHEMAS = { create_node: createNode, update_node: updateNode, delete_node: deleteNode } as const;
export const OPERATION_TYPES = Object.keys(OP_SCHEMAS) as (keyof typeof OP_SCHEMAS)[];

/** Picks the schema by `type` first, so an unknown type gets one clear message. */
const pickOperation = z.unknown().transform((value, ctx): EditOperation => {
  const t = (value as { type?: unknown } | null)?.type;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'An operation must be an object with a "type"' });
    return z.NEVER;
  }
  // Own keys only: `__proto__`, `constructor` or `toString` must not find Object's built-ins.
  const schema = typeof t === 'string' && Object.hasOwn(OP_SCHEMAS, t) ? OP_SCHEMAS[t as keyof typeof OP_SCHEMAS] : undefined;
  if (!schema) {
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `Unknown operation type ${JSON.stringify(t)}; expected one of: ${OPERATION_TYPES.join(', ')}`,
    });
    return z.NEVER;
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    for (const issue of r.error.issues) ctx.addIssue({ ...issue, code: 'custom', path: issue.path } as never);
    return z.NEVER;
  }
  return r.data;
});
/** Documented (OpenAPI) as the union of the three operation schemas it picks from. */
export const operation = documentAs(pickOperation, z.discriminatedUnion('type', [createNode, updateNode, deleteNode]));

export const editRequest = z.object({
  journal_id: idText(100, 'journal_id'),
  operations: z
    .array(operation)
    .min(1, 'operations must hold at least one operation')
    .max(MAX_OPERATIONS, `At most ${MAX_OPERATIONS} operations per edit call`),
  sync_realtime_state: z.boolean().default(true),
  atomic: z.boolean().default(false),
  dry_run: z.boolean().default(false),
  expected_revision: z.number().int().min(0).optional(),
});
export type EditRequest = z.output<typeof editRequest>;
