/**
 * zod schemas of the version history endpoints' answers (docs/versions.md); the routes type their
 * answers with them and the OpenAPI document is generated from them.
 */
import * as z from 'zod';
import { pmNodeSchema } from '../schema.ts';

const actor = z.object({
  actor: z.enum(['api_key', 'editor', 'service']).describe('api_key: REST edits and restores; editor: a WebSocket editor; service: the service itself'),
  key_id: z.string().nullable().describe('the API key (for an editor, the key its connection was opened with); null for service'),
});

const changedBy = z
  .array(actor.extend({ blocks: z.array(z.string()).describe('ids of the blocks it added, changed or removed'), last_changed_at: z.string() }))
  .describe('who changed which blocks (docs/versions.md, "Who changed what")');

export const versionSchema = z.object({
  version_id: z.string(),
  journal_id: z.string(),
  name: z.string().nullable(),
  kind: z.enum(['named', 'auto', 'restore']).describe('docs/versions.md'),
  created_at: z.string(),
  created_by: z.string(),
  revision: z.number().int(),
  block_count: z.number().int(),
  bytes: z.number().int(),
  changed_by: changedBy.optional().describe('changes since the version before (listed and read versions)'),
});

export const versionCreateResponseSchema = versionSchema.extend({ success: z.literal(true), message: z.string(), timestamp: z.string() });

export const versionListResponseSchema = z.object({
  success: z.literal(true),
  versions: z.array(versionSchema),
  next_page_token: z.number().int().optional(),
});

export const versionGetResponseSchema = versionSchema.extend({
  success: z.literal(true),
  content: z.string().optional().describe('markdown (format markdown or both)'),
  model: pmNodeSchema.optional().describe('ProseMirror JSON (format model or both)'),
});

const blockChange = z.object({
  block_id: z.string(),
  type: z.string(),
  before: z.string().optional(),
  after: z.string().optional(),
  changed_by: z.array(actor).describe('who touched the block between the two versions'),
});

export const versionDiffResponseSchema = z.object({
  success: z.literal(true),
  journal_id: z.string(),
  from: versionSchema,
  to: z.union([versionSchema, z.literal('current')]),
  diff: z.object({
    added: z.array(blockChange),
    removed: z.array(blockChange),
    changed: z.array(blockChange),
    moved: z.array(z.object({ block_id: z.string(), type: z.string(), from_index: z.number().int(), to_index: z.number().int(), changed_by: z.array(actor) })),
  }),
  changed_by: changedBy,
  total: z.number().int().describe('entries of the whole diff, over all pages'),
  next_page_token: z.number().int().optional().describe('pass as page_token for the next page; absent on the last'),
});

export const versionRestoreResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  restored_from: z.string(),
  revision: z.number().int(),
  version: versionSchema,
  previous: versionSchema.describe('the version taken just before the restore'),
  timestamp: z.string(),
});

export type VersionCreateResponse = z.infer<typeof versionCreateResponseSchema>;
export type VersionListResponse = z.infer<typeof versionListResponseSchema>;
export type VersionGetResponse = z.infer<typeof versionGetResponseSchema>;
export type VersionDiffResponse = z.infer<typeof versionDiffResponseSchema>;
export type VersionRestoreResponse = z.infer<typeof versionRestoreResponseSchema>;
