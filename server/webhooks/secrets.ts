/**
 * Per-organization webhook signing secrets. Created on first use (the first delivery or the admin
 * command `webhook secret`); `webhook rotate-secret` replaces it, and for
 * ROTATION_GRACE_MS afterwards deliveries carry signatures with both the new and the previous
 * secret, so receivers can switch without dropping events.
 *
 * Stored only (no cache): every instance signs with what the shared store holds now, so a
 * rotation made by the admin command line or another instance applies to the next delivery.
 */
import type { Queryable, StorageEngine } from '../storage/engine.ts';
import { nowIso } from '../time.ts';
import { newSecret } from './signing.ts';

export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

interface SecretRow {
  org_id: string;
  secret: string;
  previous_secret: string | null;
  previous_expires_at: number | null;
}

export class WebhookSecrets {
  constructor(readonly engine: StorageEngine) {}

  /** The organization's current secret, created now when it has none. */
  async secret(orgId: string): Promise<string> {
    return (await this.row(orgId, this.engine)).secret;
  }

  /** Secrets to sign with now: the current one, plus the previous one during its grace period. */
  async signingSecrets(orgId: string, now = Date.now()): Promise<string[]> {
    const r = await this.row(orgId, this.engine);
    return r.previous_secret && (r.previous_expires_at ?? 0) > now ? [r.secret, r.previous_secret] : [r.secret];
  }

  /** Replaces the secret; the one it replaces stays valid for ROTATION_GRACE_MS. */
  rotate(orgId: string): Promise<string> {
    return this.engine.transaction(async (tx) => {
      await this.row(orgId, tx);
      const next = newSecret();
      // One statement: concurrent rotations queue on the row lock, each keeping the one before it.
      await tx.run(`UPDATE webhook_secrets SET previous_secret = secret, previous_expires_at = ?, secret = ?, rotated_at = ? WHERE org_id = ?`, [
        Date.now() + ROTATION_GRACE_MS,
        next,
        nowIso(),
        orgId,
      ]);
      return next;
    });
  }

  private async row(orgId: string, q: Queryable): Promise<SecretRow> {
    const select = 'SELECT org_id, secret, previous_secret, previous_expires_at FROM webhook_secrets WHERE org_id = ?';
    const existing = await q.get<SecretRow>(select, [orgId]);
    if (existing) return existing;
    // Two instances creating it at once: one insert wins, both then read the winner.
    await q.run('INSERT INTO webhook_secrets (org_id, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (org_id) DO NOTHING', [orgId, newSecret(), nowIso()]);
    return (await q.get<SecretRow>(select, [orgId]))!;
  }
}
