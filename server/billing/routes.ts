/** GET /v1/usage: the organization, its balance, its limits as enforced with what is left, its usage, its spend per day and the prices. */
import { Router } from 'express';
import { principalOf } from '../auth/middleware.ts';
import { parseOr422 } from '../http/errors.ts';
import type { BillingService } from './service.ts';
import { usageQuery, type UsageReport } from './usage-schema.ts';

export function billingRoutes(billing: BillingService): Router {
  const r = Router();
  r.get('/usage', async (req, res) => {
    const q = parseOr422(usageQuery, req.query, ['query']);
    const answer: UsageReport = await billing.usage(principalOf(req), q.days);
    res.json(answer);
  });
  return r;
}
