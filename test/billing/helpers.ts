/** Shared by the billing suites: a principal for an organization made directly in the database. */
import { createApiKey, createOrganization, resolveApiKey, type Principal, type Tier } from '../../server/auth/keys.ts';
import type { DB } from '../../server/storage/db.ts';

export function newPrincipal(db: DB, tier: Tier): Principal {
  const org = createOrganization(db, `org-${tier}-${Math.random().toString(36).slice(2, 8)}`, tier);
  return resolveApiKey(db, createApiKey(db, org.id).api_key)!;
}

/** Midnight UTC of a fixed day, so tests start at a day's first minute. */
export const DAY_START = Date.UTC(2030, 5, 1);
