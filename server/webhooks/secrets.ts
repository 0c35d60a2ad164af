/**
 * Per-organization webhook signing secrets. Created on first use (the first delivery or the admin
 * command `webhook secret`); `webhook rotate-secret` replaces it, and for
 * ROTATION_GRACE_MS afterwards deliveries carry signatures with both the new and the previous
 * secret, so receivers can switch without dropping events.
 */
import type { Statement } from 'better-sqlite3';
import type { DB } from '../storage/db.ts';
import { nowIso } from '../storage/db.ts';
import { newSecret } from './signing.ts';

export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

interface SecretRow {
  org_id: string;
  secret: string;
  previous_secret: string | null;
  previous_expires_at: number | null;
}

export class WebhookSecrets {
  private readonly get: Statement;
  private readonly insert: Statement;
  private readonly rotateStmt: Statement;

  constructor(readonly db: DB) {
    this.get = db.prepare('SELECT org_id, secret, previous_secret, previous_expires_at FROM webhook_secrets WHERE org_id = ?');
    this.insert = db.prepare('INSERT OR IGNORE INTO webhook_secrets (org_id, secret, created_at) VALUES (?, ?, ?)');
    this.rotateStmt = db.prepare(
      `UPDATE webhook_secrets SET previous_secret = secret, previous_expires_at = ?, secret = ?, rotated_at = ? WHERE org_id = ?`,
    );
  }

  /** The organization's current secret, created now when it has none. */
  secret(orgId: string): string {
    return this.row(orgId).secret;
  }

  /** Secrets to sign with now: the current one, plus the previous one during its grace period. */
  signingSecrets(orgId: string, now = Date.now()): string[] {
    const r = this.row(orgId);
    return r.previous_secret && (r.previous_expires_at ?? 0) > now ? [r.secret, r.previous_secret] : [r.secret];
  }

  rotate(orgId: string): string {
    return this.db.transaction(() => {
      this.row(orgId);
      const next = newSecret();
      this.rotateStmt.run(Date.now() + ROTATION_GRACE_MS, next, nowIso(), orgId);
      return next;
    })();
  }

  private row(orgId: string): SecretRow {
    const existing = this.get.get(orgId) as SecretRow | undefined;
    if (existing) return existing;
    this.insert.run(orgId, newSecret(), nowIso());
    return this.get.get(orgId) as SecretRow;
  }
}
