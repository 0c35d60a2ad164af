/**
 * Idempotency-Key support: a retried request with the same key and the same body gets the stored
 * response and applies nothing twice; the same key with another body is a 422. Records are kept
 * per API key for IDEMPOTENCY_TTL_HOURS and written in the same SQLite transaction as the effect.
 */
import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { DB } from '../storage/db.ts';
import { invalid } from '../http/errors.ts';

export const IDEMPOTENCY_TTL_HOURS = 24;
const MAX_KEY_LENGTH = 255;

export interface StoredResponse {
  status: number;
  body: unknown;
}

export class IdempotencyStore {
  private readonly find: Statement;
  private readonly insert: Statement;
  private readonly purge: Statement;

  constructor(db: DB) {
    this.find = db.prepare(
      'SELECT request_hash, status, response, created_at FROM idempotency_records WHERE key_id = ? AND idem_key = ?',
    );
    this.insert = db.prepare(
      'INSERT INTO idempotency_records (key_id, idem_key, request_hash, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.purge = db.prepare('DELETE FROM idempotency_records WHERE created_at < ?');
  }

  static requestHash(method: string, path: string, body: unknown): string {
    return createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body)}`).digest('hex');
  }

  static validateKey(key: string): void {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
      throw invalid(['header', 'Idempotency-Key'], `Idempotency-Key must be 1-${MAX_KEY_LENGTH} visible ASCII characters`);
    }
  }

  /** The stored response for a retry, or undefined for a first request. 422 on a body mismatch. */
  lookup(keyId: string, idemKey: string, requestHash: string): StoredResponse | undefined {
    const row = this.find.get(keyId, idemKey) as
      | { request_hash: string; status: number; response: string; created_at: string }
      | undefined;
    if (!row || Date.parse(row.created_at) < Date.now() - IDEMPOTENCY_TTL_HOURS * 3600_000) return undefined;
    if (row.request_hash !== requestHash) {
      throw invalid(
        ['header', 'Idempotency-Key'],
        'This Idempotency-Key was already used with a different request body; use a new key for a new request',
      );
    }
    return { status: row.status, body: JSON.parse(row.response) };
  }

  save(keyId: string, idemKey: string, requestHash: string, res: StoredResponse): void {
    const now = new Date();
    this.purge.run(new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3600_000).toISOString());
    this.insert.run(keyId, idemKey, requestHash, res.status, JSON.stringify(res.body), now.toISOString());
  }
}
