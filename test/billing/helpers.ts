/** Shared by the billing suites: a principal for an organization made directly in the store. */
import { createApiKey, createOrganization, resolveApiKey, type Principal, type Tier } from '../../server/auth/keys.ts';
import type { Queryable } from '../../server/storage/engine.ts';

export async function newPrincipal(q: Queryable, tier: Tier): Promise<Principal> {
  const org = await createOrganization(q, `org-${tier}-${Math.random().toString(36).slice(2, 8)}`, tier);
  return (await resolveApiKey(q, (await createApiKey(q, org.id)).api_key))!;
}

/** Midnight UTC of a fixed day, so tests start at a day's first minute. */
export const DAY_START = Date.UTC(2030, 5, 1);
