/**
 * Admin command line: `npm run --silent admin -- <command> [--flags]` (scripts/admin.mjs runs the
 * build of server/admin/main.ts, dist/server/admin.cjs). Works on the store of record
 * directly: PostgreSQL when DATABASE_URL is set in its environment, else DATA_DIR's SQLite file
 * (WAL mode makes that safe while the server runs). Changes reach running servers within
 * CHANGE_CHECK_MS (server/auth/changes.ts). Each command prints exactly one JSON object on stdout;
 * errors go to stderr with a non-zero exit code (2 for bad arguments, 1 for an unknown
 * organization or key). `--help`, `-h` or `help` prints the usage of what precedes it (or
 * follows `help`) on stdout and exits 0 (usage.ts).
 */
import { parseArgs } from 'node:util';
import {
  countOrganizations,
  createApiKey,
  createOrganization,
  getOrganization,
  listApiKeys,
  listOrganizations,
  revokeApiKey,
  ROLES,
  type Role,
  setOrganizationTier,
  TIERS,
  type Organization,
  type Tier,
} from '../auth/keys.ts';
import { systemClock } from '../billing/clock.ts';
import { WINDOWS, type WindowName } from '../billing/limits.ts';
import { MICROS_PER_USD, usd } from '../billing/prices.ts';
import { BillingService } from '../billing/service.ts';
import { loadConfig } from '../config.ts';
import { ENDPOINT_CATALOG } from '../endpoints.ts';
import type { StorageEngine } from '../storage/engine.ts';
import { openStorageEngine } from '../storage/open.ts';
import { WebhookSecrets } from '../webhooks/secrets.ts';
import { commandUsage, type CommandName, helpFor, isCommand, USAGE } from './usage.ts';

/** Bad arguments: exit 2 with the usage text. */
class UsageError extends Error {}
/** Unknown organization or key: exit 1. */
class NotFoundError extends Error {}

type Flags = Record<string, string | undefined>;

function required(flags: Flags, name: string): string {
  const v = flags[name];
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function tierOf(v: string | undefined): Tier {
  if (v === undefined) return 'developer';
  if (!(TIERS as readonly string[]).includes(v)) throw new UsageError(`--tier must be one of ${TIERS.join(', ')}`);
  return v as Tier;
}

function roleOf(v: string | undefined): Role {
  if (v === undefined) return 'member';
  if (!(ROLES as readonly string[]).includes(v)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return v as Role;
}

async function orgOf(db: StorageEngine, flags: Flags): Promise<Organization> {
  const id = required(flags, 'org');
  const org = await getOrganization(db, id);
  if (!org) throw new NotFoundError(`no organization with id ${id}`);
  return org;
}

/** Dollars as written ("5", "0.25", "12.000001") to exact integer micro-dollars. */
function microsOf(v: string, opts: { positive: boolean }): number {
  const m = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(v.trim());
  if (!m) throw new UsageError(`--usd must be an amount in dollars with at most 6 decimals, like 5 or 0.25 (got "${v}")`);
  const micros = Number(m[1]) * MICROS_PER_USD + Number((m[2] ?? '').padEnd(6, '0'));
  if (opts.positive && micros === 0) throw new UsageError('--usd must be more than 0');
  return micros;
}

async function describeOrg(db: StorageEngine, billing: BillingService, org: Organization) {
  const keys = await listApiKeys(db, org.id);
  const limits = [];
  for (const endpoint of billing.catalog.names) {
    const l = await billing.limits(org.id, org.tier, endpoint);
    limits.push({ endpoint, per_minute: l.minute, per_day: l.day ?? null, custom: l.custom });
  }
  return {
    org_id: org.id,
    name: org.name,
    tier: org.tier,
    created_at: org.created_at,
    credit_balance_usd: usd(await billing.credits.balance(org.id)),
    keys: { active: keys.filter((k) => k.revoked_at === null).length, revoked: keys.filter((k) => k.revoked_at !== null).length },
    limits,
  };
}

const commands: Record<CommandName, (db: StorageEngine, flags: Flags, billing: BillingService) => Promise<unknown>> = {
  'org create': async (db, f) => {
    const org = await createOrganization(db, required(f, 'name'), tierOf(f.tier));
    return { org_id: org.id, name: org.name, tier: org.tier };
  },
  'org list': async (db, _f, billing) => {
    const organizations = [];
    for (const o of await listOrganizations(db)) {
      organizations.push({ org_id: o.id, name: o.name, tier: o.tier, created_at: o.created_at, credit_balance_usd: usd(await billing.credits.balance(o.id)) });
    }
    return { count: await countOrganizations(db), organizations };
  },
  'org show': async (db, f, billing) => describeOrg(db, billing, await orgOf(db, f)),
  'org set-tier': async (db, f) => {
    const tier = tierOf(required(f, 'tier'));
    const org = await orgOf(db, f);
    await setOrganizationTier(db, org.id, tier);
    return { org_id: org.id, name: org.name, tier, previous_tier: org.tier };
  },
  'org set-limit': async (db, f, billing) => {
    const name = required(f, 'endpoint');
    const endpoint = ENDPOINT_CATALOG.byName(name);
    if (!endpoint) throw new UsageError(`unknown endpoint "${name}"; one of:\n  ${ENDPOINT_CATALOG.names.join('\n  ')}`);
    const window = required(f, 'window');
    if (!(WINDOWS as readonly string[]).includes(window)) throw new UsageError(`--window must be one of ${WINDOWS.join(', ')}`);
    const raw = required(f, 'limit');
    let limit: number | undefined;
    if (raw !== 'default') {
      if (!/^\d{1,9}$/.test(raw)) throw new UsageError(`--limit must be a whole number of requests (0 blocks the endpoint) or "default" (got "${raw}")`);
      limit = Number(raw);
    }
    const org = await orgOf(db, f);
    await billing.setLimit(org.id, endpoint, window as WindowName, limit);
    const l = await billing.limits(org.id, org.tier, endpoint);
    return { org_id: org.id, tier: org.tier, endpoint, per_minute: l.minute, per_day: l.day ?? null, custom: l.custom };
  },
  'credits set': async (db, f, billing) => {
    const micros = microsOf(required(f, 'usd'), { positive: false });
    const org = await orgOf(db, f);
    return { org_id: org.id, credit_balance_usd: usd(await billing.credits.set(org.id, micros)) };
  },
  'credits grant': async (db, f, billing) => {
    const micros = microsOf(required(f, 'usd'), { positive: true });
    const org = await orgOf(db, f);
    return { org_id: org.id, credit_balance_usd: usd(await billing.credits.credit(org.id, micros)) };
  },
  'key create': async (db, f) => {
    // An admin key may manage the organization's keys over REST (docs/keys.md); member is the default.
    const role = roleOf(f.role);
    const org = await orgOf(db, f);
    return createApiKey(db, org.id, f.name, role);
  },
  'key list': async (db, f) => {
    const org = await orgOf(db, f);
    return { org_id: org.id, keys: await listApiKeys(db, org.id) };
  },
  'key revoke': async (db, f) => {
    const keyId = required(f, 'key-id');
    const key = await revokeApiKey(db, keyId);
    if (!key) throw new NotFoundError(`no API key with id ${keyId}`);
    return { key_id: key.key_id, org_id: key.org_id, revoked_at: key.revoked_at };
  },
  // Webhook signing secrets (docs/webhooks.md): shown whenever asked, created on first use.
  'webhook secret': async (db, f) => ({ secret: await new WebhookSecrets(db).secret((await orgOf(db, f)).id) }),
  'webhook rotate-secret': async (db, f) => ({ secret: await new WebhookSecrets(db).rotate((await orgOf(db, f)).id) }),
};

export async function runAdmin(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; out?: string; err?: string }> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        tier: { type: 'string' },
        org: { type: 'string' },
        endpoint: { type: 'string' },
        window: { type: 'string' },
        limit: { type: 'string' },
        usd: { type: 'string' },
        'key-id': { type: 'string' },
        role: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return { code: 2, err: `${(e as Error).message}\n${USAGE}` };
  }
  const words = parsed.positionals.filter((w) => w !== 'help');
  if (parsed.values.help || words.length < parsed.positionals.length) {
    const page = helpFor(words);
    return page ? { code: 0, out: page } : { code: 2, err: `Unknown command "${words.join(' ')}"\n${USAGE}` };
  }
  const name = words.join(' ');
  if (!isCommand(name)) return { code: 2, err: `${name ? `Unknown command "${name}"` : 'A command is required'}\n${USAGE}` };
  const config = loadConfig(env);
  // DATABASE_URL (in the environment given) selects PostgreSQL, as for the server.
  const db = await openStorageEngine({ databaseUrl: config.databaseUrl, sqliteFile: config.dbPath, poolSize: 2 });
  const billing = new BillingService(db, systemClock, ENDPOINT_CATALOG);
  try {
    return { code: 0, out: JSON.stringify(await commands[name](db, parsed.values as Flags, billing)) };
  } catch (e) {
    if (e instanceof UsageError) return { code: 2, err: `${e.message}\n${commandUsage(name)}` };
    if (e instanceof NotFoundError) return { code: 1, err: e.message };
    throw e;
  } finally {
    await billing.close();
    await db.close();
  }
}
