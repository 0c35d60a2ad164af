/**
 * Comments as the API shows them, read from a journal's document (COMMENTS_ROOT): each resolved
 * against the text as it is now (anchor.ts). Stored values that are not comments (an editor may
 * write anything into a root) are skipped.
 */
import * as Y from 'yjs';
import { COMMENTS_ROOT, type StoredComment, type StoredReply, type StoredReplyEntry } from '../../../shared/comments.ts';
import type { LiveJournal } from '../live.ts';
import { resolveComment } from './anchor.ts';
import type { CommentView } from './schema.ts';

export function commentsMap(doc: Y.Doc): Y.Map<StoredComment | StoredReplyEntry> {
  return doc.getMap<StoredComment | StoredReplyEntry>(COMMENTS_ROOT);
}

function isReply(v: unknown): v is StoredReplyEntry {
  const r = v as Partial<StoredReplyEntry> | null;
  return !!r && typeof r === 'object' && typeof r.reply_to === 'string' && typeof r.reply_id === 'string' && typeof r.body === 'string' && typeof r.created_at === 'string' && !!r.author && typeof r.author === 'object';
}

/** The replies of every comment, oldest first. */
function repliesByComment(map: Y.Map<unknown>): Map<string, StoredReply[]> {
  const out = new Map<string, StoredReply[]>();
  map.forEach((v, k) => {
    if (!isReply(v) || k !== `${v.reply_to}/${v.reply_id}`) return;
    const { reply_to, ...reply } = v;
    let list = out.get(reply_to);
    if (!list) out.set(reply_to, (list = []));
    list.push(reply);
  });
  for (const list of out.values()) list.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.reply_id < b.reply_id ? -1 : 1));
  return out;
}

/** How many comments the journal holds (replies not counted). */
export function countComments(map: Y.Map<unknown>): number {
  let n = 0;
  map.forEach((v, k) => {
    if (isStored(v) && v.comment_id === k) n++;
  });
  return n;
}

/** Keys of a comment's replies (deleted with it). */
export function replyKeysOf(map: Y.Map<unknown>, commentId: string): string[] {
  const keys: string[] = [];
  map.forEach((v, k) => {
    if (isReply(v) && v.reply_to === commentId) keys.push(k);
  });
  return keys;
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

export function commentView(live: LiveJournal, c: StoredComment, replies?: StoredReply[]): CommentView {
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
    replies: replies ?? repliesByComment(commentsMap(live.doc) as Y.Map<unknown>).get(c.comment_id) ?? [],
    created_at: c.created_at,
  };
}

/** Every comment of the journal, oldest first; call inside a settled task. */
export function readComments(live: LiveJournal): CommentView[] {
  const out: StoredComment[] = [];
  const map = commentsMap(live.doc);
  map.forEach((v, k) => {
    if (isStored(v) && v.comment_id === k) out.push(v);
  });
  out.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.comment_id < b.comment_id ? -1 : 1));
  const replies = repliesByComment(map as Y.Map<unknown>);
  return out.map((c) => commentView(live, c, replies.get(c.comment_id) ?? []));
}
