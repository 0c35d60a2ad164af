/**
 * The admin command line's usage texts: every command with its flags and what it prints, the
 * overview, one group's page (`org --help`) and one command's page (`org create --help`).
 */
const PROGRAM = 'npm run --silent admin --';
const TIER = 'developer|scale|enterprise';

/** Every command, by name: its flags and what it does and prints. */
export const COMMANDS = {
  'org create': { flags: `--name NAME [--tier ${TIER}]`, about: 'Creates an organization (tier developer by default, $5 of credit). Prints {"org_id","name","tier"}.' },
  'org list': { flags: '', about: 'Lists every organization with its tier and credit balance. Prints {"count","organizations":[…]}.' },
  'org show': {
    flags: '--org ORG_ID',
    about: 'Shows one organization: tier, credit balance, how many keys are active and revoked, and the rate limits of every endpoint.',
  },
  'org set-tier': { flags: `--org ORG_ID --tier ${TIER}`, about: "Changes the organization's tier (its rate limits), at once for every key. Prints the tier and the previous one." },
  'org set-limit': {
    flags: '--org ORG_ID --endpoint "POST /interactives/practice/create" --window minute|day --limit N|default',
    about: 'Gives the organization its own limit for one endpoint and window (0 blocks the endpoint; "default" returns to the tier\'s). Prints the limits now in force.',
  },
  'credits set': { flags: '--org ORG_ID --usd X', about: 'Sets the credit balance to X dollars (up to 6 decimals). Prints {"org_id","credit_balance_usd"}.' },
  'credits grant': { flags: '--org ORG_ID --usd X', about: 'Adds X dollars (more than 0) to the credit balance. Prints {"org_id","credit_balance_usd"}.' },
  'key create': {
    flags: '--org ORG_ID [--name LABEL] [--role admin|member]',
    about: 'Creates an API key (role member by default; an admin key also manages the keys over REST). Prints {"key_id","api_key",…}: the key is shown this once.',
  },
  'key list': { flags: '--org ORG_ID', about: "Lists the organization's keys, without secrets. Prints {\"org_id\",\"keys\":[…]}." },
  'key revoke': { flags: '--key-id KEY_ID', about: 'Revokes a key at once; its open editor connections close. Prints {"key_id","org_id","revoked_at"}.' },
  'webhook secret': { flags: '--org ORG_ID', about: 'Prints the secret that signs the organization\'s webhooks, {"secret":"whsec_…"} (made on first use).' },
  'webhook rotate-secret': { flags: '--org ORG_ID', about: 'Replaces the webhook signing secret and prints the new one.' },
} as const satisfies Record<string, { flags: string; about: string }>;

export type CommandName = keyof typeof COMMANDS;

const NAMES = Object.keys(COMMANDS) as CommandName[];
const synopsis = (name: CommandName) => `${name} ${COMMANDS[name].flags}`.trimEnd();

/** Command groups (`org`, `credits`, `key`, `webhook`), in the order of the table. */
export const GROUPS = [...new Set(NAMES.map((n) => n.split(' ')[0]!))];

export function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

/** The overview: every command's synopsis. */
export const USAGE = `Usage: ${PROGRAM} <command> [flags]
   or: node dist/server/admin.cjs <command> [flags]   (the same, without npm's start-up; after a build)

Works on the store of record: DATA_DIR's SQLite database (default ./data), or PostgreSQL when
DATABASE_URL is set. Each command prints one JSON object on stdout.

Commands:
${NAMES.map((n) => `  ${synopsis(n)}`).join('\n')}

Help: --help, -h or help, here or after a command ("org --help", "key create --help").`;

/** One group's page: its commands with what each does. */
export function groupUsage(group: string): string {
  const names = NAMES.filter((n) => n.startsWith(`${group} `));
  return `Usage: ${PROGRAM} ${group} <subcommand> [flags]\n\n${names.map((n) => `  ${synopsis(n)}\n      ${COMMANDS[n].about}`).join('\n')}`;
}

/** One command's page. */
export function commandUsage(name: CommandName): string {
  return `Usage: ${PROGRAM} ${synopsis(name)}\n\n${COMMANDS[name].about}`;
}

/** The help page for the words given (none: the overview), or undefined when they name nothing. */
export function helpFor(words: string[]): string | undefined {
  const name = words.join(' ');
  if (words.length === 0) return USAGE;
  if (words.length === 1 && GROUPS.includes(name)) return groupUsage(name);
  if (isCommand(name)) return commandUsage(name);
  return undefined;
}
