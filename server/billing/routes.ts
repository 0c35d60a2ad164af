/** GET /v1/usage: the organization, its balance, its limits as enforced with what is left, its usage, its spend per day and the prices. */
import { Router } from 'express';
import { principalOf } from '../auth/middleware.ts';
import { route } from '../http/endpoint.ts';
import type { BillingService } from './service.ts';
import { billingEndpoints, type UsageReport } from './usage-schema.ts';

export function billingRoutes(billing: BillingService): Router {
  const r = Router();
  route(r, billingEndpoints.usage, async (call, res) => {
    const answer: UsageReport = await billing.usage(principalOf(call.req), call.query.days);
    res.json(answer);
  });
  return r;
}
