/**
 * Versioned schema migrations, applied in order inside one transaction each. `PRAGMA user_version`
 * records the last applied version. Never edit a released migration: append a new one, here and in
 * postgres-migrations.ts under the same name (test/storage/migrations.test.ts checks the names).
 */
export interface Migration {
  readonly name: string;
  readonly sql: string;
}

export const migrations: readonly Migration[] = [
  // 1: organizations, keys, journals with update log + snapshot, idempotency records
  {
    name: 'organizations-keys-journals',
    sql: `
  CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    tier TEXT NOT NULL CHECK (tier IN ('developer', 'scale', 'enterprise')),
    created_at TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id),
    name TEXT,
    key_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE INDEX api_keys_org ON api_keys(org_id);
  CREATE TABLE journals (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    org_id TEXT NOT NULL REFERENCES organizations(id),
    title TEXT NOT NULL,
    team_slug TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX journals_key_seq ON journals(key_id, seq);
  -- Large values live apart from the journal row: SQLite rewrites a whole row on UPDATE, and the
  -- revision is bumped on every edit.
  CREATE TABLE journal_snapshots (
    journal_seq INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL,
    data BLOB NOT NULL
  );
  CREATE TABLE journal_markdown_cache (
    journal_seq INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL,
    markdown TEXT NOT NULL
  );
  CREATE TABLE journal_updates (
    journal_seq INTEGER NOT NULL,
    revision INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (journal_seq, revision)
  ) WITHOUT ROWID;
  CREATE TABLE idempotency_records (
    key_id TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (key_id, idem_key)
  ) WITHOUT ROWID;
  `,
  },
  // 2: billing — credit balances (integer micro-dollars, $5 to start), rate-limit counters (one
  // row per organization, endpoint and window kind, reset in place when a new window starts),
  // per-organization limits, and credit reservations of asynchronous jobs
  {
    name: 'billing',
    sql: `
  ALTER TABLE organizations ADD COLUMN credit_balance_micros INTEGER NOT NULL DEFAULT 5000000
    CHECK (credit_balance_micros >= 0);
  CREATE TABLE rate_counters (
    org_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    win TEXT NOT NULL CHECK (win IN ('minute', 'day')),
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (org_id, endpoint, win)
  ) WITHOUT ROWID;
  CREATE TABLE org_limits (
    org_id TEXT NOT NULL REFERENCES organizations(id),
    endpoint TEXT NOT NULL,
    win TEXT NOT NULL CHECK (win IN ('minute', 'day')),
    limit_value INTEGER NOT NULL CHECK (limit_value >= 0),
    PRIMARY KEY (org_id, endpoint, win)
  ) WITHOUT ROWID;
  CREATE TABLE credit_reservations (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations(id),
    purpose TEXT NOT NULL,
    amount_micros INTEGER NOT NULL CHECK (amount_micros >= 0),
    status TEXT NOT NULL CHECK (status IN ('held', 'settled', 'refunded')),
    cost_micros INTEGER,
    created_at TEXT NOT NULL,
    closed_at TEXT
  );
  CREATE INDEX credit_reservations_org ON credit_reservations(org_id, status);
  `,
  },
  // 3: durable jobs (generic: kind + JSON payload + lease), practice sets and their problems,
  // the webhook outbox and per-organization signing secrets, and the FTS5 index of journal
  // markdown used by search_for_problems (entries of deleted journals go with them)
  {
    name: 'jobs-practice-webhooks-search',
    sql: `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    run_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_expires_at INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX jobs_runnable ON jobs(state, run_at);
  CREATE TABLE practice_sets (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    org_id TEXT NOT NULL REFERENCES organizations(id),
    set_name TEXT,
    request TEXT NOT NULL,
    context TEXT,
    status TEXT NOT NULL,
    engine TEXT,
    total_problems INTEGER NOT NULL,
    completed_problems INTEGER NOT NULL DEFAULT 0,
    message TEXT,
    webhook_url TEXT,
    reservation_id TEXT,
    cost_micros INTEGER,
    job_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX practice_sets_key ON practice_sets(key_id);
  CREATE TABLE practice_problems (
    set_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    problem TEXT NOT NULL,
    PRIMARY KEY (set_id, idx)
  ) WITHOUT ROWID;
  CREATE TABLE webhook_secrets (
    org_id TEXT PRIMARY KEY REFERENCES organizations(id),
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_expires_at INTEGER,
    created_at TEXT NOT NULL,
    rotated_at TEXT
  );
  CREATE TABLE webhook_outbox (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL,
    url TEXT NOT NULL,
    event_type TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL,
    delivered_at TEXT
  );
  CREATE INDEX webhook_outbox_due ON webhook_outbox(state, next_attempt_at);
  CREATE VIRTUAL TABLE journal_search USING fts5(title, body, tokenize = 'porter unicode61');
  CREATE TABLE journal_search_state (
    journal_seq INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL
  );
  CREATE TRIGGER journal_search_forget AFTER DELETE ON journals BEGIN
    DELETE FROM journal_search WHERE rowid = old.seq;
    DELETE FROM journal_search_state WHERE journal_seq = old.seq;
  END;
  `,
  },
  // videos (docs/video-api.md): request, the outline once read, throttled progress, the result
  {
    name: 'videos',
    sql: `
  CREATE TABLE videos (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    org_id TEXT NOT NULL REFERENCES organizations(id),
    request TEXT NOT NULL,
    outline TEXT,
    status TEXT NOT NULL,
    completion_percentage REAL NOT NULL DEFAULT 0,
    message TEXT,
    error TEXT,
    result TEXT,
    webhook_url TEXT,
    reservation_id TEXT,
    cost_micros INTEGER,
    job_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    completed_at TEXT
  );
  CREATE INDEX videos_key ON videos(key_id);
  `,
  },
  // secrets every instance must agree on (the editor-token key when EDITOR_TOKEN_SECRET is unset)
  {
    name: 'service-secrets',
    sql: `
  CREATE TABLE service_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  },
  // an update written by a REST edit with sync_realtime_state false: other instances catching up
  // from the log must not push it to their editors either
  {
    name: 'journal-updates-quiet',
    sql: `
  ALTER TABLE journal_updates ADD COLUMN quiet INTEGER NOT NULL DEFAULT 0;
  `,
  },
  // counters of changes other processes' caches must see (server/auth/changes.ts)
  {
    name: 'store-changes',
    sql: `
  CREATE TABLE store_changes (
    name TEXT PRIMARY KEY,
    version INTEGER NOT NULL
  );
  `,
  },
  // practice sets and videos listed newest first by an integer keyset cursor like journals: both
  // tables rebuilt with an AUTOINCREMENT seq (an identity column on PostgreSQL), rows copied in
  // their insertion order; and stored flashcard decks (docs/flashcards-api.md)
  {
    name: 'resource-lists-and-decks',
    sql: `
  CREATE TABLE practice_sets_by_seq (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    org_id TEXT NOT NULL REFERENCES organizations(id),
    set_name TEXT,
    request TEXT NOT NULL,
    context TEXT,
    status TEXT NOT NULL,
    engine TEXT,
    total_problems INTEGER NOT NULL,
    completed_problems INTEGER NOT NULL DEFAULT 0,
    message TEXT,
    webhook_url TEXT,
    reservation_id TEXT,
    cost_micros INTEGER,
    job_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  INSERT INTO practice_sets_by_seq (id, key_id, org_id, set_name, request, context, status, engine, total_problems,
    completed_problems, message, webhook_url, reservation_id, cost_micros, job_id, created_at, updated_at)
    SELECT id, key_id, org_id, set_name, request, context, status, engine, total_problems,
      completed_problems, message, webhook_url, reservation_id, cost_micros, job_id, created_at, updated_at
    FROM practice_sets ORDER BY rowid;
  DROP TABLE practice_sets;
  ALTER TABLE practice_sets_by_seq RENAME TO practice_sets;
  CREATE INDEX practice_sets_key ON practice_sets(key_id);
  CREATE INDEX practice_sets_key_seq ON practice_sets(key_id, seq);
  CREATE TABLE videos_by_seq (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    org_id TEXT NOT NULL REFERENCES organizations(id),
    request TEXT NOT NULL,
    outline TEXT,
    status TEXT NOT NULL,
    completion_percentage REAL NOT NULL DEFAULT 0,
    message TEXT,
    error TEXT,
    result TEXT,
    webhook_url TEXT,
    reservation_id TEXT,
    cost_micros INTEGER,
    job_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    completed_at TEXT
  );
  INSERT INTO videos_by_seq (id, key_id, org_id, request, outline, status, completion_percentage, message, error,
    result, webhook_url, reservation_id, cost_micros, job_id, created_at, updated_at, completed_at)
    SELECT id, key_id, org_id, request, outline, status, completion_percentage, message, error,
      result, webhook_url, reservation_id, cost_micros, job_id, created_at, updated_at, completed_at
    FROM videos ORDER BY rowid;
  DROP TABLE videos;
  ALTER TABLE videos_by_seq RENAME TO videos;
  CREATE INDEX videos_key ON videos(key_id);
  CREATE INDEX videos_key_seq ON videos(key_id, seq);
  CREATE TABLE flashcard_decks (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    org_id TEXT NOT NULL REFERENCES organizations(id),
    source TEXT NOT NULL,
    journal_id TEXT,
    requested_count INTEGER NOT NULL,
    cards TEXT NOT NULL,
    card_count INTEGER NOT NULL,
    engine TEXT NOT NULL,
    cost_micros INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX flashcard_decks_key_seq ON flashcard_decks(key_id, seq);
  `,
  },
  // GET /readyz writes one row per instance to prove the store takes writes (server/ops/routes.ts)
  {
    name: 'readiness-probe',
    sql: `
  CREATE TABLE readiness_probe (
    instance TEXT PRIMARY KEY,
    checked_at TEXT NOT NULL
  );
  `,
  },
  // Deleting a journal moves it to the trash with its history; purged after TRASH_RETENTION_DAYS
  {
    name: 'journal-trash',
    sql: `
  ALTER TABLE journals ADD COLUMN trashed_at TEXT;
  CREATE INDEX journals_trashed ON journals(trashed_at);
  `,
  },
  // Version history (docs/versions.md): a base state or the delta since the version before
  {
    name: 'journal-versions',
    sql: `
  CREATE TABLE journal_versions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    journal_seq INTEGER NOT NULL,
    name TEXT,
    kind TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    revision INTEGER NOT NULL,
    block_count INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    base INTEGER NOT NULL,
    state_vector BLOB NOT NULL,
    data BLOB NOT NULL
  );
  CREATE INDEX journal_versions_journal ON journal_versions(journal_seq, seq);
  `,
  },
  // Who changed what (docs/versions.md): per committed update range, its actor and touched blocks
  {
    name: 'journal-activity',
    sql: `
  CREATE TABLE journal_activity (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    journal_seq INTEGER NOT NULL,
    first_revision INTEGER NOT NULL,
    last_revision INTEGER NOT NULL,
    actor TEXT NOT NULL,
    at TEXT NOT NULL,
    blocks TEXT NOT NULL
  );
  CREATE INDEX journal_activity_journal ON journal_activity(journal_seq, last_revision);
  `,
  },
  // Key roles (docs/keys.md): `admin` keys manage the organization's keys, `member` keys (the
  // default) do everything else. Keys that existed before roles become admins, so that no
  // organization loses key management; `last_used_at` is written at most once a second per key.
  // Spend per organization, UTC day and endpoint, for GET /v1/usage (server/billing/spend.ts).
  {
    name: 'key-roles-and-daily-spend',
    sql: `
  ALTER TABLE api_keys ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'));
  ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
  UPDATE api_keys SET role = 'admin';
  CREATE INDEX api_keys_org_created ON api_keys(org_id, created_at, id);
  CREATE TABLE spend_daily (
    org_id TEXT NOT NULL,
    day TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    micros INTEGER NOT NULL,
    charges INTEGER NOT NULL,
    PRIMARY KEY (org_id, day, endpoint)
  ) WITHOUT ROWID;
  `,
  },
  // Organizations take turns (issue 26): jobs name the organization they work for, and the claim
  // ranks runnable jobs within each one (server/jobs/store.ts).
  {
    name: 'tenant-fairness',
    sql: `
  ALTER TABLE jobs ADD COLUMN org_id TEXT NOT NULL DEFAULT '';
  `,
  },
  // Publishing and nesting (docs/publishing.md, docs/nesting.md): a published journal's slug
  // (its page at /p/{slug}; NULL while private), and its parent journal with its place among its
  // siblings (NULL at the top; order_index NULL until it is first moved).
  {
    name: 'journal-publish-and-nesting',
    sql: `
  ALTER TABLE journals ADD COLUMN publish_slug TEXT;
  ALTER TABLE journals ADD COLUMN published_at TEXT;
  ALTER TABLE journals ADD COLUMN parent_id TEXT;
  ALTER TABLE journals ADD COLUMN order_index INTEGER;
  CREATE UNIQUE INDEX journals_publish_slug ON journals(publish_slug);
  CREATE INDEX journals_parent ON journals(parent_id, order_index);
  `,
  },
  // Who changed what (docs/versions.md): the journal's open activity run, in its row. Consecutive
  // commits whose one actor touched the same blocks share one journal_activity row, written when
  // the run ends, instead of one row per commit (issue 33: two pages more per journal per commit).
  {
    name: 'journal-activity-run',
    sql: `
  ALTER TABLE journals ADD COLUMN activity_first INTEGER;
  ALTER TABLE journals ADD COLUMN activity_last INTEGER;
  ALTER TABLE journals ADD COLUMN activity_actor TEXT;
  ALTER TABLE journals ADD COLUMN activity_blocks TEXT;
  ALTER TABLE journals ADD COLUMN activity_at TEXT;
  `,
  },
];
