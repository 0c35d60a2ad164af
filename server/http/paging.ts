/**
 * Query of the paged lists that work like GET /journals/list: newest first, `page_token` the
 * integer `next_page_token` of the previous page (a keyset cursor, stable under concurrent inserts
 * and deletes), `page_size` 1-100, default 20.
 */
import * as z from 'zod';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export const pageQuery = z.object({
  page_token: z.string().regex(/^\d{1,15}$/, 'page_token must be the integer next_page_token of the previous page').transform(Number).optional(),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
