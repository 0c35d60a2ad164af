/** Routes of comments (endpoints.ts, docs/comments.md); thin over CommentService. */
import { Router } from 'express';
import { principalOf } from '../../auth/middleware.ts';
import { chargeFor } from '../../billing/middleware.ts';
import { route } from '../../http/endpoint.ts';
import { nowIso } from '../../time.ts';
import { commentEndpoints as e } from './endpoints.ts';
import type { CommentService } from './service.ts';
import type { CommentView } from './schema.ts';

export function commentRoutes(comments: CommentService): Router {
  const r = Router();
  const one = (message: string, out: { comment: CommentView; revision: number }) => ({ success: true as const, message, comment: out.comment, timestamp: nowIso(), revision: out.revision });

  route(r, e.create, async (call, res) => {
    const out = await comments.create(principalOf(call.req), call.param('journal_id'), call.body, chargeFor(call.req));
    res.json({ success: true, message: 'Comment created', ...out.comment, timestamp: nowIso(), revision: out.revision });
  });

  route(r, e.list, async (call, res) => {
    const out = await comments.list(principalOf(call.req), call.param('journal_id'));
    res.json({ success: true, message: `${out.comments.length} comments`, journal_id: call.param('journal_id'), comments: out.comments, timestamp: nowIso(), revision: out.revision });
  });

  route(r, e.get, async (call, res) => {
    res.json(one('Comment', await comments.get(principalOf(call.req), call.param('journal_id'), call.param('comment_id'))));
  });

  route(r, e.reply, async (call, res) => {
    const b = call.body;
    res.json(one('Reply added', await comments.reply(principalOf(call.req), call.param('journal_id'), call.param('comment_id'), b.body, b.author_name, chargeFor(call.req))));
  });

  route(r, e.resolve, async (call, res) => {
    res.json(one('Comment resolved', await comments.resolve(principalOf(call.req), call.param('journal_id'), call.param('comment_id'), true, chargeFor(call.req))));
  });

  route(r, e.reopen, async (call, res) => {
    res.json(one('Comment reopened', await comments.resolve(principalOf(call.req), call.param('journal_id'), call.param('comment_id'), false, chargeFor(call.req))));
  });

  route(r, e.delete, async (call, res) => {
    const out = await comments.delete(principalOf(call.req), call.param('journal_id'), call.param('comment_id'), chargeFor(call.req));
    res.json({ success: true, message: 'Comment deleted', comment_id: call.param('comment_id'), timestamp: nowIso(), revision: out.revision });
  });

  return r;
}
