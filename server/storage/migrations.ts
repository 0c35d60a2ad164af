/**
 * Versioned schema migrations, applied in order inside one transaction each. `PRAGMA user_version`
 * records the last applied version. Never edit a released migration: append a new one.
 */
export const migrations: readonly string[] = [
  // 1: organizations, keys, journals with update log + snapshot, idempotency records
  `
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
    revision INTEGER NOT NULL DEFAULT 0,
    snapshot BLOB,
    snapshot_revision INTEGER NOT NULL DEFAULT 0,
    markdown_cache TEXT,
    markdown_cache_revision INTEGER
  );
  CREATE INDEX journals_key_seq ON journals(key_id, seq);
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
];
