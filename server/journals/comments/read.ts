/**
 * Comments as the API shows them, read from a journal's document (COMMENTS_ROOT): each resolved
 * against the text as it is now (anchor.ts). Stored values that are not comments (an editor may
 * write anything into a root) are skipped.
 */
import * as Y from 'yjs';
import { COMMENTS_ROOT, type StoredComment } from '../../../shared/comments.ts';
import type { LiveJournal } from '../live.ts';
import { resolveComment } from './anchor.ts';
import type { CommentView } from './schema.ts';

export function commentsMap(doc: Y.Doc): Y.Map<StoredComment> {
  return doc.getMap<StoredComment>(COMMENTS_ROOT);
}

function isStored(v: unknown): v is StoredComment {
  const c = v as Partial<StoredComment> | null;
  return (
    !!c &&
    typeof c === 'object' &&
    typeof c.comment_id === 'string' &&
    typeof c.block_id === 'string' &&
    typeof c.body === 'string' &&
    typeof c.quote === 'string' &&
    typeof c.created_at === 'string' &&
    !!c.author &&
    typeof c.author === 'object' &&
    Array.isArray(c.replies)
  );
}

export function storedComment(live: LiveJournal, commentId: string): StoredComment | undefined {
  const v = commentsMap(live.doc).get(commentId);
  return isStored(v) && v.comment_id === commentId ? v : undefined;
}

export function commentView(live: LiveJournal, c: StoredComment): CommentView {
  const r = resolveComment(live.doc, live.fragment, c, (id) => live.blocks.find(id));
  return {
    comment_id: c.comment_id,
    journal_id: live.id,
    block_id: r.blockId,
    from: r.detached ? null : (r.from ?? null),
    to: r.detached ? null : (r.to ?? null),
    whole_block: !c.from || !c.to,
    quote: r.quote,
    body: c.body,
    author: c.author,
    resolved: c.resolved === true,
    resolved_at: c.resolved_at ?? null,
    detached: r.detached,
    replies: c.replies,
    created_at: c.created_at,
  };
}

/** Every comment of the journal, oldest first; call inside a settled task. */
export function readComments(live: LiveJournal): CommentView[] {
  const out: StoredComment[] = [];
  commentsMap(live.doc).forEach((v, k) => {
    if (isStored(v) && v.comment_id === k) out.push(v);
  });
  out.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.comment_id < b.comment_id ? -1 : 1));
  return out.map((c) => commentView(live, c));
}
