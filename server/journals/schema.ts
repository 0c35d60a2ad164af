/**
 * zod schemas of the journal endpoints' answers (README "Journal API"); the routes type their
 * answers with them and the OpenAPI document is generated from them. The request schemas live
 * with their routes (routes.ts, edit/operations.ts).
 */
import * as z from 'zod';
import { commentSchema } from './comments/schema.ts';

const stamp = z.string().describe('ISO 8601 time of the answer');

/** A ProseMirror node as JSON (the block model; every block has attrs.id). */
export const pmNodeSchema = z.looseObject({
  type: z.string(),
  attrs: z.record(z.string(), z.unknown()).optional(),
  content: z.array(z.unknown()).optional(),
  text: z.string().optional(),
  marks: z.array(z.unknown()).optional(),
});

export const journalCreateResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  title: z.string(),
  created_at: z.string(),
  timestamp: stamp,
});

export const journalImportResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  journal_url: z.string().describe('the journal in the web editor'),
  timestamp: stamp,
});

const placeFields = {
  parent_item: z.string().describe('the parent journal id; "" at the top (docs/nesting.md)'),
  order_index: z.number().int().nullable().describe('its place among its siblings; null until first moved'),
  publish_status: z.enum(['private', 'published']).describe('docs/publishing.md'),
  publish_url: z.string().nullable().describe('the public page while published, else null'),
};

export const journalListItemSchema = z.object({ id: z.string(), title: z.string(), created_at: z.string(), updated_at: z.string(), ...placeFields });

export const journalListResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journals: z.array(journalListItemSchema),
  next_page_token: z.number().int().optional().describe('present when there are more: pass it as page_token'),
});

export const journalTrashResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journals: z.array(journalListItemSchema.extend({ trashed_at: z.string().nullable() })),
  next_page_token: z.number().int().optional(),
});

export const journalContentResponseSchema = z.object({
  success: z.literal(true),
  message: z.null(),
  title: z.string(),
  journal_id: z.string(),
  content: z.string().describe('the journal as CommonMark/GFM markdown'),
  timestamp: stamp,
  revision: z.number().int(),
  ...placeFields,
});

export const journalModelResponseSchema = z.object({
  success: z.literal(true),
  model: pmNodeSchema.describe('the ProseMirror document (type "doc"); every block carries attrs.id'),
  message: z.null(),
  timestamp: stamp,
  revision: z.number().int(),
});

export const journalRenameResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  title: z.string(),
  timestamp: stamp,
});

export const journalDeleteResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  timestamp: stamp,
  deleted_journal_data: z.object({
    id: z.string(),
    type: z.literal('journal'),
    title: z.string(),
    content: z.string(),
    comments: z.array(commentSchema).describe('its comments with their replies, as GET …/comments answered them'),
    created_at: z.string(),
    is_trashed: z.boolean(),
    updated_at: z.string(),
    font_family: z.string(),
    publish_status: z.string(),
    publish_subdomain: z.string(),
    color: z.string(),
    trashed_at: z.string().nullable(),
    parent_item: z.string(),
    order_indexes: z.array(z.string()).nullable().describe("its children's ids in order; null when it has none"),
    pending_invites: z.null(),
  }),
});

export const journalRestoreResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const operationResultSchema = z.object({
  operation: z.string(),
  success: z.boolean(),
  error: z.string().describe('empty when the operation succeeded'),
  data: z.object({ created: z.boolean(), nodeId: z.string(), nodeIds: z.array(z.string()), updated: z.string(), deleted: z.string() }),
});

export const editResponseSchema = z
  .object({
    success: z.boolean().describe('false when any operation failed'),
    journal_id: z.string(),
    results: z.array(operationResultSchema).describe('one per operation, in order'),
    message: z.string(),
    timestamp: stamp,
    revision: z.number().int(),
    applied: z.boolean(),
    dry_run: z.boolean(),
  })
  .meta({
    examples: [
      {
        success: true,
        journal_id: '3f0b…',
        results: [
          { operation: 'create_node', success: true, error: '', data: { created: true, nodeId: 'b7x2k9', nodeIds: ['b7x2k9'], updated: '', deleted: '' } },
        ],
        message: '1 of 1 operations applied',
        timestamp: '2030-06-01T09:00:00.000Z',
        revision: 4,
        applied: true,
        dry_run: false,
      },
    ],
  });

export type JournalCreateResponse = z.infer<typeof journalCreateResponseSchema>;
export type JournalImportResponse = z.infer<typeof journalImportResponseSchema>;
export type JournalListResponse = z.infer<typeof journalListResponseSchema>;
export type JournalTrashResponse = z.infer<typeof journalTrashResponseSchema>;
export type JournalContentResponse = z.infer<typeof journalContentResponseSchema>;
export type JournalModelResponse = z.infer<typeof journalModelResponseSchema>;
export type JournalRenameResponse = z.infer<typeof journalRenameResponseSchema>;
export type JournalDeleteResponse = z.infer<typeof journalDeleteResponseSchema>;
export type JournalRestoreResponse = z.infer<typeof journalRestoreResponseSchema>;
