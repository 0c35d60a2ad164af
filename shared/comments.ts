/**
 * Comments of a journal live in its Y.Doc, beside the `prosemirror` fragment, in the Y.Map named
 * COMMENTS_ROOT (comment id -> stored comment, a plain JSON value; `{comment id}/{reply id}` ->
 * a reply). So they travel with the
 * journal wherever its document goes (the trash, versions, the other instances) and editors see
 * them change live. Only the service writes them (REST, docs/comments.md); editors read them.
 */
export const COMMENTS_ROOT = 'comments';

/** A Yjs relative position as `Y.relativePositionToJSON` writes it. */
export interface StoredPosition {
  type?: { client: number; clock: number } | null;
  tname?: string | null;
  item?: { client: number; clock: number } | null;
  assoc?: number;
}

export interface CommentAuthor {
  /** `api_key`: a script's key; `editor`: a person in the web app (named by `name`). */
  type: 'api_key' | 'editor';
  key_id: string;
  name: string | null;
}

export interface StoredReply {
  reply_id: string;
  body: string;
  author: CommentAuthor;
  created_at: string;
}

/**
 * A reply is stored under its own key, `{comment_id}/{reply_id}`, with `reply_to` naming its
 * comment: two replies written at once (on two instances) are two keys, and both are kept.
 */
export type StoredReplyEntry = StoredReply & { reply_to: string };

export const replyKey = (commentId: string, replyId: string): string => `${commentId}/${replyId}`;

/** One comment as stored under COMMENTS_ROOT. */
export interface StoredComment {
  comment_id: string;
  /** The block it was made on. */
  block_id: string;
  /** Anchors of the range; both null for a comment on the whole block. */
  from: StoredPosition | null;
  to: StoredPosition | null;
  /** The text quoted when it was made (shown once the text is gone). */
  quote: string;
  body: string;
  author: CommentAuthor;
  resolved: boolean;
  resolved_at: string | null;
  created_at: string;
  /** Always empty: replies are entries of their own (StoredReplyEntry). */
  replies: StoredReply[];
}
