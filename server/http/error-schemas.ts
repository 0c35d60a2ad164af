/**
 * zod schemas of the contract's error answers (README "Errors and limits"), published in the
 * OpenAPI document: `{error}` with what each status adds, and 422's FastAPI-style `{detail}`.
 */
import * as z from 'zod';

export const errorSchema = z.looseObject({ error: z.string() }).meta({ examples: [{ error: 'Journal not found' }] });

export const validationErrorSchema = z
  .object({
    detail: z.array(
      z.object({
        loc: z.array(z.union([z.string(), z.number()])).describe('where: ["body", "operations", 0, "nodeId"], ["query", "page_size"], ["header", "Idempotency-Key"], ["path"]'),
        msg: z.string(),
        type: z.string(),
      }),
    ),
  })
  .meta({ examples: [{ detail: [{ loc: ['body', 'title'], msg: 'title must not be blank', type: 'value_error' }] }] });

export const rateLimitedSchema = z
  .object({ error: z.string(), retry_after: z.number().int().describe('seconds, as Retry-After'), limit_type: z.enum(['minute', 'day']) })
  .meta({ examples: [{ error: 'Rate limit exceeded: 10 requests per minute for GET /journals/content/{id} (the developer tier\'s limit); retry after 42 s', retry_after: 42, limit_type: 'minute' }] });

export const insufficientCreditSchema = z
  .object({ error: z.string(), balance: z.number().describe('dollars'), required: z.number().describe('dollars') })
  .meta({ examples: [{ error: 'Insufficient credit: the balance does not cover the price of this request', balance: 0.00001, required: 0.0001 }] });

export const conflictSchema = z.looseObject({ error: z.string(), status: z.string().optional().describe("a video's status, when its files are asked for too early"), current_revision: z.number().int().optional().describe('with expected_revision: the journal\'s revision now') });

export const internalErrorSchema = z.object({ error: z.string(), request_id: z.string() });
