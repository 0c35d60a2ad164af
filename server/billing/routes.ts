/** GET /v1/usage: the organization, its balance, its limits as enforced, its usage and the prices. */
import { Router } from 'express';
import { principalOf } from '../auth/middleware.ts';
import type { BillingService } from './service.ts';

export function billingRoutes(billing: BillingService): Router {
  const r = Router();
  r.get('/usage', async (req, res) => {
    res.json(await billing.usage(principalOf(req)));
  });
  return r;
}
