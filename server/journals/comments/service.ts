/**
 * Comments on journals (docs/comments.md): stored in the journal's Y.Doc under COMMENTS_ROOT,
 * anchored with Yjs relative positions. Every change is one Yjs transaction committed with its
 * charge and then broadcast, like a REST edit, so editors see comments live and they go wherever
 * the journal's document goes (trash, versions, other instances).
 */
import { randomUUID } from 'node:crypto';
import type * as Y from 'yjs';
import { COMMENTS_ROOT, replyKey, type CommentAuthor, type StoredComment, type StoredReplyEntry } from '../../../shared/comments.ts';
import type { Principal } from '../../auth/keys.ts';
import type { Charge } from '../../billing/middleware.ts';
import { invalid, notFound } from '../../http/errors.ts';
import { nowIso } from '../../time.ts';
import type { StorageEngine } from '../../storage/engine.ts';
import { RestOrigin, type LiveJournal } from '../live.ts';
import type { JournalService } from '../service.ts';
import { anchorRange, blockText } from './anchor.ts';
import { MAX_COMMENTS_PER_JOURNAL, MAX_REPLIES_PER_COMMENT } from './endpoints.ts';
import { commentsMap, commentView, countComments, readComments, replyKeysOf, storedComment } from './read.ts';
import type { CommentView } from './schema.ts';

export interface NewComment {
  block_id: string;
  from?: number;
  to?: number;
  body: string;
  author_name?: string;
}

function authorOf(p: Principal, name: string | undefined): CommentAuthor {
  return name ? { type: 'editor', key_id: p.keyId, name } : { type: 'api_key', key_id: p.keyId, name: null };
}

export class CommentService {
  constructor(
    private readonly engine: StorageEngine,
    private readonly journals: JournalService,
  ) {}

  private async opened(p: Principal, journalId: string): Promise<LiveJournal> {
    return this.journals.live(await this.journals.owned(p, journalId));
  }

  async list(p: Principal, journalId: string): Promise<{ comments: CommentView[]; revision: number }> {
    const live = await this.opened(p, journalId);
    return live.settledTask(() => ({ comments: readComments(live), revision: live.revision }));
  }

  async get(p: Principal, journalId: string, commentId: string): Promise<{ comment: CommentView; revision: number }> {
    const live = await this.opened(p, journalId);
    return live.settledTask(() => {
      const c = storedComment(live, commentId);
      if (!c) throw notFound('Comment');
      return { comment: commentView(live, c), revision: live.revision };
    });
  }

  /**
   * Runs `plan` on the committed document (404/422 thrown there change nothing), then writes what
   * it returns as one Yjs transaction committed with the charge, and broadcasts it.
   */
  private async change<T>(
    p: Principal,
    journalId: string,
    charge: Charge | undefined,
    plan: (live: LiveJournal, map: Y.Map<StoredComment | StoredReplyEntry>) => { write: (map: Y.Map<StoredComment | StoredReplyEntry>) => void; answer: () => T },
  ): Promise<{ out: T; revision: number }> {
    const row = await this.journals.owned(p, journalId);
    const live = await this.journals.live(row);
    return live.settledTask(async () => {
      const map = commentsMap(live.doc);
      const step = plan(live, map);
      const origin = new RestOrigin(true, `api_key:${p.keyId}`);
      let updates: Uint8Array[] | undefined;
      let revision = live.revision;
      try {
        await this.engine.transaction(async (tx) => {
          await charge?.(tx);
          // Captured once: on PostgreSQL the transaction function may run again, the Y.Doc change must not.
          updates ??= live.captureChanges(() => live.doc.transact(() => step.write(map), origin));
          if (updates.length === 0) return;
          const last = await this.journals.store.appendUpdates(tx, row.seq, updates, false, live.touchesFor(updates));
          if (last === undefined) throw notFound('Journal');
          revision = last;
        });
      } catch (err) {
        // The store rolled back, but the Y.Doc cannot: the journal reloads from the store.
        if (updates?.length) live.abandonOwn(err);
        throw err;
      }
      if (updates?.length) live.commitOwn(updates, origin, revision);
      return { out: step.answer(), revision };
    });
  }

  async create(p: Principal, journalId: string, req: NewComment, charge?: Charge): Promise<{ comment: CommentView; revision: number }> {
    const { out, revision } = await this.change(p, journalId, charge, (live, map) => {
      if (countComments(map as Y.Map<unknown>) >= MAX_COMMENTS_PER_JOURNAL) throw invalid(['body'], `a journal holds at most ${MAX_COMMENTS_PER_JOURNAL} comments; delete some first`, 'value_error.limit');
      const el = live.blocks.find(req.block_id);
      if (!el) throw invalid(['body', 'block_id'], 'no block with this id in the journal', 'value_error.block_not_found');
      const text = blockText(el);
      let anchors: ReturnType<typeof anchorRange> = undefined;
      let quote = text;
      if (req.from !== undefined || req.to !== undefined) {
        const from = req.from ?? 0;
        const to = req.to ?? text.length;
        if (from > text.length) throw invalid(['body', 'from'], `from is past the block's text (${text.length} characters)`, 'value_error.out_of_range');
        if (to > text.length) throw invalid(['body', 'to'], `to is past the block's text (${text.length} characters)`, 'value_error.out_of_range');
        if (to <= from) throw invalid(['body', 'to'], 'to must be greater than from (a range of at least one character)', 'value_error.empty_range');
        anchors = anchorRange(el, from, to);
        if (!anchors) throw invalid(['body', 'from'], 'the block has no text to anchor a range in', 'value_error.out_of_range');
        quote = text.slice(from, to);
      }
      const comment: StoredComment = {
        comment_id: randomUUID(),
        block_id: req.block_id,
        from: anchors?.from ?? null,
        to: anchors?.to ?? null,
        quote,
        body: req.body,
        author: authorOf(p, req.author_name),
        resolved: false,
        resolved_at: null,
        created_at: nowIso(),
        replies: [],
      };
      return { write: (m) => m.set(comment.comment_id, comment), answer: () => commentView(live, comment) };
    });
    return { comment: out, revision };
  }

  /** Replaces one stored comment by what `update` makes of it (404 when there is none). */
  private async update(p: Principal, journalId: string, commentId: string, charge: Charge | undefined, update: (c: StoredComment) => StoredComment) {
    const { out, revision } = await this.change(p, journalId, charge, (live) => {
      const c = storedComment(live, commentId);
      if (!c) throw notFound('Comment');
      const next = update(c);
      return { write: (m) => m.set(commentId, next), answer: () => commentView(live, next) };
    });
    return { comment: out, revision };
  }

  /** A reply is an entry of its own (shared/comments.ts): replies written at once on two instances are both kept. */
  async reply(p: Principal, journalId: string, commentId: string, body: string, authorName: string | undefined, charge?: Charge) {
    const { out, revision } = await this.change(p, journalId, charge, (live, map) => {
      const c = storedComment(live, commentId);
      if (!c) throw notFound('Comment');
      if (replyKeysOf(map as Y.Map<unknown>, commentId).length >= MAX_REPLIES_PER_COMMENT) {
        throw invalid(['body'], `a comment holds at most ${MAX_REPLIES_PER_COMMENT} replies`, 'value_error.limit');
      }
      const reply: StoredReplyEntry = { reply_to: commentId, reply_id: randomUUID(), body, author: authorOf(p, authorName), created_at: nowIso() };
      return { write: (m) => m.set(replyKey(commentId, reply.reply_id), reply), answer: () => commentView(live, c) };
    });
    return { comment: out, revision };
  }

  resolve(p: Principal, journalId: string, commentId: string, resolved: boolean, charge?: Charge) {
    return this.update(p, journalId, commentId, charge, (c) => ({ ...c, resolved, resolved_at: resolved ? nowIso() : null }));
  }

  async delete(p: Principal, journalId: string, commentId: string, charge?: Charge): Promise<{ revision: number }> {
    const { revision } = await this.change(p, journalId, charge, (live) => {
      if (!storedComment(live, commentId)) throw notFound('Comment');
      const replies = replyKeysOf(live.doc.getMap(COMMENTS_ROOT), commentId);
      return {
        write: (m) => {
          m.delete(commentId);
          for (const k of replies) m.delete(k);
        },
        answer: () => undefined,
      };
    });
    return { revision };
  }
}
