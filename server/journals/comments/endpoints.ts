/** The comment endpoints (docs/comments.md), each declared once; routes.ts serves them. */
import * as z from 'zod';
import { meteredEndpoints } from '../../billing/endpoints.ts';
import { read } from '../../billing/prices.ts';
import { READ_ERRORS, WRITE_ERRORS } from '../../http/endpoint.ts';
import { idText, nameText, personText } from '../../http/text.ts';
import { commentCreateResponseSchema, commentDeleteResponseSchema, commentListResponseSchema, commentResponseSchema } from './schema.ts';

/** Limits of comments (docs/comments.md). */
export const MAX_COMMENT_CHARS = 10_000;
export const MAX_COMMENTS_PER_JOURNAL = 1_000;
export const MAX_REPLIES_PER_COMMENT = 200;
export const MAX_AUTHOR_NAME = 100;

const JOURNAL = { journal_id: 'the journal id' };
const COMMENT = { ...JOURNAL, comment_id: 'the comment id' };

/** Text a person writes: not blank, no control characters but line breaks (server/http/text.ts). */
const body = personText(MAX_COMMENT_CHARS, 'body');
const authorName = nameText(MAX_AUTHOR_NAME, 'author_name')
  .transform((s) => s.trim())
  .optional()
  .describe("an editor's name (the web app sends the name its user chose); the author is the key otherwise");
const offset = z.number().int('offsets are whole characters').min(0, 'offsets start at 0').max(10_000_000);

export const commentEndpoints = meteredEndpoints('Comments', {
  create: {
    method: 'post',
    path: '/v1/journals/{journal_id}/comments',
    operationId: 'createComment',
    summary: "Comment on a range of a block's text (from/to), or on the whole block",
    description:
      "from/to are character offsets in the block's text (its characters, nested blocks included, UTF-16 code units); the range follows the text through every later edit and is `detached` once its text is deleted. Without both, the comment is on the whole block.",
    params: JOURNAL,
    body: z.object({ block_id: idText(100, 'block_id'), from: offset.optional(), to: offset.optional(), body, author_name: authorName }).strict(),
    example: { block_id: 'b7x2k9', from: 4, to: 8, body: 'Which kind of cell?' },
    success: { status: 200, description: 'the comment', schema: commentCreateResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 50, billing: 'request' },
  },
  list: {
    method: 'get',
    path: '/v1/journals/{journal_id}/comments',
    operationId: 'listComments',
    summary: "The journal's comments with their replies, oldest first",
    params: JOURNAL,
    success: { status: 200, description: 'the comments', schema: commentListResponseSchema },
    errors: READ_ERRORS,
    price: read(10),
  },
  get: {
    method: 'get',
    path: '/v1/journals/{journal_id}/comments/{comment_id}',
    operationId: 'getComment',
    summary: 'One comment with its replies',
    params: COMMENT,
    success: { status: 200, description: 'the comment', schema: commentResponseSchema },
    errors: READ_ERRORS,
    price: read(10),
  },
  reply: {
    method: 'post',
    path: '/v1/journals/{journal_id}/comments/{comment_id}/replies',
    operationId: 'replyToComment',
    summary: 'Reply to a comment',
    params: COMMENT,
    body: z.object({ body, author_name: authorName }).strict(),
    example: { body: 'The eukaryotic one.' },
    success: { status: 200, description: 'the comment with the reply', schema: commentResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 20, billing: 'request' },
  },
  resolve: {
    method: 'post',
    path: '/v1/journals/{journal_id}/comments/{comment_id}/resolve',
    operationId: 'resolveComment',
    summary: 'Mark a comment resolved',
    params: COMMENT,
    success: { status: 200, description: 'the comment', schema: commentResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 20, billing: 'request' },
  },
  reopen: {
    method: 'post',
    path: '/v1/journals/{journal_id}/comments/{comment_id}/reopen',
    operationId: 'reopenComment',
    summary: 'Reopen a resolved comment',
    params: COMMENT,
    success: { status: 200, description: 'the comment', schema: commentResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 20, billing: 'request' },
  },
  delete: {
    method: 'delete',
    path: '/v1/journals/{journal_id}/comments/{comment_id}',
    operationId: 'deleteComment',
    summary: 'Delete a comment and its replies',
    params: COMMENT,
    success: { status: 200, description: 'deleted', schema: commentDeleteResponseSchema },
    errors: READ_ERRORS,
    price: { base: 20, billing: 'request' },
  },
});
