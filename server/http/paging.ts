/**
 * Query of the paged lists that work like GET /journals/list: newest first, `page_token` the
 * integer `next_page_token` of the previous page (a keyset cursor, stable under concurrent inserts
 * and deletes), `page_size` 1-100, default 20.
 */
import * as z from 'zod';
import type { Request, Router } from 'express';
import { documentAs } from './documented.ts';
import { route, type Endpoint, type ErrorStatus } from './endpoint.ts';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** Largest cursor: 15 digits (positions are row numbers, far below it). */
const MAX_PAGE_TOKEN = 999_999_999_999_999;

/**
 * A query string is text: the cursor is read from its digits (so `1e3` or ` 5` are refused), and
 * documented as the integer it is, the type of `next_page_token` in the answers.
 */
export const pageToken = documentAs(
  z.string().regex(/^\d{1,15}$/, 'page_token must be the integer next_page_token of the previous page').transform(Number),
  z.number().int().min(0).max(MAX_PAGE_TOKEN).describe('the integer `next_page_token` of the previous page'),
);

export const pageQuery = z.object({
  page_token: pageToken.optional(),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});

/** A GET of a key's items, newest first, paged by `pageQuery` (every list but the versions' and the keys'). */
export function pagedList<P extends { path: string; operationId: string; summary: string; schema: z.ZodType }>(list: P) {
  const { schema, ...names } = list;
  return { method: 'get' as const, ...names, query: pageQuery, success: { status: 200, description: 'a page', schema }, errors: [402, 422] as ErrorStatus[] };
}

/** A page as the lists answer it: the items under their own name, and `next_page_token` when more follow. */
export function pageAnswer<K extends string, T, N extends number | string>(name: K, items: T[], next: N | undefined): { success: true } & Record<K, T[]> & { next_page_token?: N };
export function pageAnswer<K extends string, T, N extends number | string>(
  name: K,
  items: T[],
  next: N | undefined,
  message: string,
): { success: true; message: string } & Record<K, T[]> & { next_page_token?: N };
export function pageAnswer(name: string, items: unknown[], next: number | string | undefined, message?: string): Record<string, unknown> {
  return {
    success: true,
    ...(message !== undefined ? { message } : {}),
    [name]: items,
    ...(next !== undefined ? { next_page_token: next } : {}),
  };
}

/**
 * The route of a paged list (a `pagedList` endpoint): `list` reads the page the request asks for;
 * the answer holds its items under `name`, a message saying how many, and `next_page_token` when
 * more follow.
 */
export function listRoute<T>(
  router: Router,
  e: Endpoint & { query: typeof pageQuery },
  name: string,
  message: (count: number) => string,
  list: (req: Request, pageToken: number | undefined, pageSize: number) => Promise<{ items: T[]; next?: number }>,
): void {
  route(router, e, async (call, res) => {
    const q = call.query as z.output<typeof pageQuery>;
    const page = await list(call.req, q.page_token, q.page_size);
    res.json(pageAnswer(name, page.items, page.next, message(page.items.length)));
  });
}
