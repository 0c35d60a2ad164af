/** Nesting routes (endpoints.ts, docs/nesting.md); thin over NestingService. */
import { Router } from 'express';
import { principalOf } from '../../auth/middleware.ts';
import { chargeFor } from '../../billing/middleware.ts';
import { route } from '../../http/endpoint.ts';
import { nowIso } from '../../time.ts';
import { nestingEndpoints as e, type ChildrenResponse, type MoveResponse } from './endpoints.ts';
import type { NestingService } from './service.ts';

export function nestingRoutes(nesting: NestingService): Router {
  const r = Router();

  route(r, e.move, async (call, res) => {
    const { row, order } = await nesting.move(principalOf(call.req), call.body, chargeFor(call.req));
    const answer: MoveResponse = {
      success: true,
      message: row.parent_id ? 'Journal moved under its parent' : 'Journal moved to the top',
      journal_id: row.id,
      parent_item: row.parent_id ?? '',
      index: order.indexOf(row.id),
      order_indexes: order,
      timestamp: nowIso(),
    };
    res.json(answer);
  });

  route(r, e.children, async (call, res) => {
    const rows = await nesting.children(principalOf(call.req), call.param('journal_id'));
    const answer: ChildrenResponse = {
      success: true,
      message: `${rows.length} children`,
      journal_id: call.param('journal_id'),
      children: rows.map((c) => ({ id: c.id, title: c.title, created_at: c.created_at, updated_at: c.updated_at, parent_item: c.parent_id ?? '', publish_status: c.publish_slug ? 'published' : 'private' })),
      order_indexes: rows.map((c) => c.id),
      timestamp: nowIso(),
    };
    res.json(answer);
  });
  return r;
}
