/** zod schemas of the comment endpoints' answers (docs/comments.md); the OpenAPI document is generated from them. */
import * as z from 'zod';

const stamp = z.string().describe('ISO 8601 time of the answer');

export const authorSchema = z.object({
  type: z.enum(['api_key', 'editor']).describe('api_key: a script; editor: a person in the web app, named by name'),
  key_id: z.string().describe('the API key that wrote it (the web app writes with its key)'),
  name: z.string().nullable().describe('the editor name given with author_name, else null'),
});

export const replySchema = z.object({
  reply_id: z.string(),
  body: z.string(),
  author: authorSchema,
  created_at: z.string(),
});

export const commentSchema = z
  .object({
    comment_id: z.string(),
    journal_id: z.string(),
    block_id: z.string().describe('the block that holds the commented text now'),
    from: z.number().int().nullable().describe("offset of the range's start in the block's text now; null when detached"),
    to: z.number().int().nullable().describe("offset just past the range's end; null when detached"),
    whole_block: z.boolean().describe('the comment is on the whole block (made without from/to)'),
    quote: z.string().describe('the commented text as it is now (as it was, once detached)'),
    body: z.string(),
    author: authorSchema,
    resolved: z.boolean(),
    resolved_at: z.string().nullable(),
    detached: z.boolean().describe('its text (or its block) was deleted'),
    replies: z.array(replySchema),
    created_at: z.string(),
  })
  .meta({
    examples: [
      {
        comment_id: '0b1c…',
        journal_id: '3f0b…',
        block_id: 'b7x2k9',
        from: 4,
        to: 8,
        whole_block: false,
        quote: 'cell',
        body: 'Which kind of cell?',
        author: { type: 'api_key', key_id: 'k_12…', name: null },
        resolved: false,
        resolved_at: null,
        detached: false,
        replies: [],
        created_at: '2030-06-01T09:00:00.000Z',
      },
    ],
  });

export const commentResponseSchema = z.object({ success: z.literal(true), message: z.string(), comment: commentSchema, timestamp: stamp, revision: z.number().int() });

export const commentCreateResponseSchema = commentSchema.extend({ success: z.literal(true), message: z.string(), timestamp: stamp, revision: z.number().int() });

export const commentListResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  comments: z.array(commentSchema).describe('oldest first'),
  timestamp: stamp,
  revision: z.number().int(),
});

export const commentDeleteResponseSchema = z.object({ success: z.literal(true), message: z.string(), comment_id: z.string(), timestamp: stamp, revision: z.number().int() });

export type CommentView = z.infer<typeof commentSchema>;
