/**
 * Admin command line: `npm run --silent admin -- <command> [--flags]`. Works on DATA_DIR's
 * database directly (WAL mode makes that safe while the server runs). Each command prints exactly
 * one JSON object on stdout; errors go to stderr with a non-zero exit code.
 */
import { parseArgs } from 'node:util';
import { createApiKey, createOrganization, TIERS, type Tier } from '../auth/keys.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type DB } from '../storage/db.ts';

const USAGE = `Usage: npm run --silent admin -- <command>
  org create --name NAME [--tier developer|scale|enterprise]
  key create --org ORG_ID [--name LABEL]`;

class UsageError extends Error {}

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

const commands: Record<string, (db: DB, flags: Flags) => unknown> = {
  'org create': (db, f) => {
    const org = createOrganization(db, required(f, 'name'), tierOf(f.tier));
    return { org_id: org.id, name: org.name, tier: org.tier };
  },
  'key create': (db, f) => {
    const org = required(f, 'org');
    try {
      return createApiKey(db, org, f.name);
    } catch {
      throw new UsageError(`no organization with id ${org}`);
    }
  },
};

export function runAdmin(argv: string[], env: NodeJS.ProcessEnv = process.env): { code: number; out?: string; err?: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { name: { type: 'string' }, tier: { type: 'string' }, org: { type: 'string' } },
    });
  } catch (e) {
    return { code: 2, err: `${(e as Error).message}\n${USAGE}` };
  }
  const name = parsed.positionals.slice(0, 2).join(' ');
  const command = commands[name];
  if (!command || parsed.positionals.length !== 2) return { code: 2, err: `Unknown command "${parsed.positionals.join(' ')}"\n${USAGE}` };
  const db = openDatabase(loadConfig(env).dbPath);
  try {
    return { code: 0, out: JSON.stringify(command(db, parsed.values as Flags)) };
  } catch (e) {
    if (e instanceof UsageError) return { code: 2, err: `${e.message}\n${USAGE}` };
    throw e;
  } finally {
    db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = runAdmin(process.argv.slice(2));
  if (r.out) process.stdout.write(`${r.out}\n`);
  if (r.err) process.stderr.write(`${r.err}\n`);
  process.exitCode = r.code;
}
