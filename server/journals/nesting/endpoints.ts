/** Nesting endpoints (docs/nesting.md), each declared once; routes.ts serves them. */
import * as z from 'zod';
import { meteredEndpoints } from '../../billing/endpoints.ts';
import { read } from '../../billing/prices.ts';
import { READ_ERRORS, WRITE_ERRORS } from '../../http/endpoint.ts';

const childSchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  parent_item: z.string().describe('the parent journal id; "" at the top'),
  publish_status: z.enum(['private', 'published']),
});

export const moveResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  parent_item: z.string().describe('the new parent; "" at the top'),
  index: z.number().int().describe('its place among its siblings, from 0'),
  order_indexes: z.array(z.string()).describe("the parent's children in order, this journal among them"),
  timestamp: z.string(),
});

export const childrenResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  children: z.array(childSchema).describe('in their order'),
  order_indexes: z.array(z.string()).describe('the children ids in order'),
  timestamp: z.string(),
});

export type MoveResponse = z.infer<typeof moveResponseSchema>;
export type ChildrenResponse = z.infer<typeof childrenResponseSchema>;

export const nestingEndpoints = meteredEndpoints('Nesting', {
  move: {
    method: 'patch',
    path: '/v1/journals/editor/move',
    operationId: 'moveJournal',
    summary: 'Put a journal under another (or at the top) at a place among its siblings',
    description: 'parent_item "" or null: the top. index: its place among the new siblings from 0 (default: last; past the end is last). A parent that is the journal itself or one of its descendants is a 422.',
    body: z
      .object({
        journal_id: z.string().min(1).max(100),
        parent_item: z.string().max(100).nullable().default(null),
        index: z.number().int('index is a whole number').min(0, 'index starts at 0').max(100_000).optional(),
      })
      .strict(),
    example: { journal_id: '3f0b2c1e-…', parent_item: '9a7d…', index: 0 },
    success: { status: 200, description: 'moved', schema: moveResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 50, billing: 'request' },
  },
  children: {
    method: 'get',
    path: '/v1/journals/{journal_id}/children',
    operationId: 'journalChildren',
    summary: "The journal's children, in order",
    params: { journal_id: 'the journal id' },
    success: { status: 200, description: 'the children', schema: childrenResponseSchema },
    errors: READ_ERRORS,
    price: read(10),
  },
});
