/**
 * GET /v1/usage, declared once: its query and its answer (docs/billing.md). BillingService.usage
 * returns `UsageReport`, typed from the answer's schema; the OpenAPI document is generated from it.
 */
import * as z from 'zod';
import { TIERS } from '../auth/keys.ts';
import { meteredEndpoints } from './endpoints.ts';
import { read } from './prices.ts';
import { SPEND_RETENTION_DAYS } from './spend.ts';

export const DEFAULT_SPEND_DAYS = 30;

export const usageQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(SPEND_RETENTION_DAYS)
    .default(DEFAULT_SPEND_DAYS)
    .describe(`UTC days of spend to report, today included (1-${SPEND_RETENTION_DAYS}, default ${DEFAULT_SPEND_DAYS})`),
});

const windowCounts = z.object({
  window_start: z.string(),
  resets_at: z.string(),
  requests: z.record(z.string(), z.number().int()).describe('requests counted in the window, per endpoint'),
});

export const usageLimitSchema = z.object({
  endpoint: z.string(),
  per_minute: z.number().int(),
  per_day: z.number().int().nullable().describe('null: no daily limit (the day is still counted)'),
  custom: z.boolean().describe("true when the organization has its own limit (admin command line's org set-limit)"),
  used: z.object({ minute: z.number().int(), day: z.number().int() }).describe('requests counted in the current minute and day windows'),
  remaining: z
    .object({ minute: z.number().int(), day: z.number().int().nullable() })
    .describe('requests left in the current windows before a 429 (day: null when there is no daily limit)'),
});

export const quotasSchema = z
  .object({
    realtime_bytes_per_minute: z
      .object({
        limit: z.number().int(),
        used: z.number().int().describe("bytes received from the organization's editors in the current UTC minute, every instance"),
        remaining: z.number().int(),
        window_start: z.string(),
        resets_at: z.string(),
      })
      .describe('past the limit, editors are closed with 1013 and upgrades answer 429 until the minute ends'),
    stored_bytes: z
      .object({
        limit: z.number().int(),
        used: z.number().int().describe("bytes the organization's journals keep: snapshots, update logs and versions, trash included"),
        remaining: z.number().int(),
      })
      .describe('at or past the limit, journal writes answer 413 and editor updates close the editor with 4402'),
  })
  .describe("the tier's quotas beside its request limits (docs/billing.md)");

export const spendEndpointSchema = z.object({
  endpoint: z.string(),
  usd: z.number(),
  micros: z.number().int(),
  charges: z.number().int().describe('paid requests (settled jobs for practice sets and videos)'),
});

export const spendDaySchema = z.object({
  date: z.string().describe('UTC day, YYYY-MM-DD'),
  usd: z.number(),
  micros: z.number().int(),
  endpoints: z.array(spendEndpointSchema).describe('what each endpoint cost that day, most expensive first; empty on a day without spend'),
});

export const usageResponseSchema = z
  .object({
    success: z.literal(true),
    organization: z.object({ id: z.string(), name: z.string(), tier: z.enum(TIERS) }),
    credit_balance: z.number().describe('dollars'),
    credit_balance_micros: z.number().int(),
    limits: z.array(usageLimitSchema),
    usage: z.object({ minute: windowCounts, day: windowCounts }),
    quotas: quotasSchema,
    spend: z
      .object({
        from: z.string(),
        to: z.string(),
        total_usd: z.number(),
        total_micros: z.number().int(),
        days: z.array(spendDaySchema).describe('every day from `from` to `to`, oldest first'),
      })
      .describe('what the organization paid per UTC day and endpoint: reads and writes when paid, practice sets and videos when settled'),
    prices: z.array(
      z.object({
        endpoint: z.string(),
        usd: z.number(),
        per_unit: z.object({ unit: z.string(), usd: z.number() }).optional(),
        billing: z.string(),
        note: z.string().optional(),
      }),
    ),
  })
  .meta({
    examples: [
      {
        success: true,
        organization: { id: '5b7c…', name: 'Acme', tier: 'developer' },
        credit_balance: 4.99987,
        credit_balance_micros: 4999870,
        limits: [
          { endpoint: 'GET /journals/content/{id}', per_minute: 10, per_day: null, custom: false, used: { minute: 3, day: 41 }, remaining: { minute: 7, day: null } },
        ],
        usage: {
          minute: { window_start: '2030-06-01T04:00:00.000Z', resets_at: '2030-06-01T04:01:00.000Z', requests: { 'GET /journals/content/{id}': 3 } },
          day: { window_start: '2030-06-01T00:00:00.000Z', resets_at: '2030-06-02T00:00:00.000Z', requests: { 'GET /journals/content/{id}': 41 } },
        },
        quotas: {
          realtime_bytes_per_minute: {
            limit: 16777216,
            used: 5120,
            remaining: 16772096,
            window_start: '2030-06-01T04:00:00.000Z',
            resets_at: '2030-06-01T04:01:00.000Z',
          },
          stored_bytes: { limit: 268435456, used: 1048576, remaining: 267386880 },
        },
        spend: {
          from: '2030-06-01',
          to: '2030-06-01',
          total_usd: 0.00041,
          total_micros: 410,
          days: [{ date: '2030-06-01', usd: 0.00041, micros: 410, endpoints: [{ endpoint: 'GET /journals/content/{id}', usd: 0.00041, micros: 410, charges: 41 }] }],
        },
        prices: [{ endpoint: 'GET /journals/content/{id}', usd: 0.00001, billing: 'request' }],
      },
    ],
  });

export type UsageReport = z.infer<typeof usageResponseSchema>;

export const billingEndpoints = meteredEndpoints('Organization', {
  usage: {
    method: 'get',
    path: '/v1/usage',
    operationId: 'usage',
    summary: 'Balance, limits in force with what is left, requests per window, spend per day and endpoint, prices',
    query: usageQuery,
    success: { status: 200, description: 'the report', schema: usageResponseSchema },
    errors: [422],
    price: read(0),
  },
});
