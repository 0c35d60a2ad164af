/**
 * Idempotency-Key support: a retried request with the same key and the same body gets the stored
 * response and applies nothing twice (and pays nothing twice); the same key with another body is a
 * 422. Records are kept per API key for IDEMPOTENCY_TTL_HOURS and written in the same transaction
 * as the effect. The journal edit uses claim/save directly (its effect is a live document's
 * transaction); every create (journals, import, practice sets, videos, flashcard decks) goes
 * through `once`.
 */
import { createHash } from 'node:crypto';
import { invalid } from './errors.ts';
import type { Queryable, StorageEngine } from '../storage/engine.ts';

/** A request's Idempotency-Key and the hash of what it asks for (method, path, body). */
export interface IdempotentRequest {
  key: string;
  hash: string;
}

/**
 * The Idempotency-Key of a request, or undefined when it has none; 422 for a malformed key. `body`
 * is the body as received (before defaults), so that equal requests hash equally.
 */
export function idempotencyOf(req: { get(name: string): string | undefined; method: string; path: string }, body: unknown): IdempotentRequest | undefined {
  const key = req.get('Idempotency-Key');
  if (key === undefined) return undefined;
  IdempotencyStore.validateKey(key);
  return { key, hash: IdempotencyStore.requestHash(req.method, req.path, body) };
}

export const IDEMPOTENCY_TTL_HOURS = 24;
export const MAX_KEY_LENGTH = 255;
/** What an Idempotency-Key may hold: visible ASCII (U+0021–U+007E), no spaces; the document's `pattern` too. */
export const KEY_PATTERN = '^[\\x21-\\x7e]+$';
const KEY_RE = new RegExp(KEY_PATTERN);

export interface StoredResponse {
  status: number;
  body: unknown;
}

export class IdempotencyStore {
  constructor(private readonly engine: StorageEngine) {}

  static requestHash(method: string, path: string, body: unknown): string {
    return createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body)}`).digest('hex');
  }

  static validateKey(key: string): void {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_RE.test(key)) {
      throw invalid(['header', 'Idempotency-Key'], `Idempotency-Key must be 1-${MAX_KEY_LENGTH} visible ASCII characters`);
    }
  }

  /** The stored response for a retry, or undefined for a first request. 422 on a body mismatch. */
  async lookup(keyId: string, idemKey: string, requestHash: string): Promise<StoredResponse | undefined> {
    const row = await this.engine.get<{ request_hash: string; status: number; response: string; created_at: string }>(
      'SELECT request_hash, status, response, created_at FROM idempotency_records WHERE key_id = ? AND idem_key = ?',
      [keyId, idemKey],
    );
    if (!row || Date.parse(row.created_at) < Date.now() - IDEMPOTENCY_TTL_HOURS * 3600_000) return undefined;
    if (row.request_hash !== requestHash) {
      throw invalid(
        ['header', 'Idempotency-Key'],
        'This Idempotency-Key was already used with a different request body; use a new key for a new request',
      );
    }
    return { status: row.status, body: JSON.parse(row.response) };
  }

  /**
   * Takes the key for this request, first thing in the effect's transaction `q`, so that a
   * concurrent request with the same key (on this instance or another) is found out before any
   * effect: on PostgreSQL the second insert waits for the first transaction and then does nothing;
   * IdempotencyRace is thrown and the caller answers with the recorded response.
   */
  async claim(q: Queryable, keyId: string, idemKey: string, requestHash: string): Promise<void> {
    const now = new Date();
    await q.run('DELETE FROM idempotency_records WHERE created_at < ?', [new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3600_000).toISOString()]);
    const { changes } = await q.run(
      `INSERT INTO idempotency_records (key_id, idem_key, request_hash, status, response, created_at) VALUES (?, ?, ?, 0, '', ?) ON CONFLICT DO NOTHING`,
      [keyId, idemKey, requestHash, now.toISOString()],
    );
    if (changes === 0) throw new IdempotencyRace();
  }

  /**
   * Runs a create once per Idempotency-Key. Without a key: `effect` in a transaction. With one: a
   * recorded response is replayed (422 when the body differs) without running anything;
   * otherwise `prepare` runs outside the transaction (slow work such as a conversion must not hold
   * the store's write lock), then the key is claimed first in the transaction, `effect` runs and
   * its response is recorded in the same transaction: a rollback (402, 422 from the effect) leaves
   * no record, and a concurrent request with the same key that committed first is replayed.
   */
  async once<P = undefined>(
    keyId: string,
    idem: IdempotentRequest | undefined,
    effect: (tx: Queryable, prepared: P) => Promise<StoredResponse>,
    prepare?: () => Promise<P>,
  ): Promise<StoredResponse> {
    if (idem) {
      const replay = await this.lookup(keyId, idem.key, idem.hash);
      if (replay) return replay;
    }
    const prepared = (prepare ? await prepare() : undefined) as P;
    if (!idem) return this.engine.transaction((tx) => effect(tx, prepared));
    try {
      return await this.engine.transaction(async (tx) => {
        await this.claim(tx, keyId, idem.key, idem.hash);
        const res = await effect(tx, prepared);
        await this.save(tx, keyId, idem.key, res);
        return res;
      });
    } catch (err) {
      if (err instanceof IdempotencyRace) {
        const replay = await this.lookup(keyId, idem.key, idem.hash);
        if (replay) return replay;
      }
      throw err;
    }
  }

  /** Records the response of a claimed key, in the same transaction. */
  async save(q: Queryable, keyId: string, idemKey: string, res: StoredResponse): Promise<void> {
    await q.run('UPDATE idempotency_records SET status = ?, response = ? WHERE key_id = ? AND idem_key = ?', [res.status, JSON.stringify(res.body), keyId, idemKey]);
  }
}

/** Another request with the same Idempotency-Key committed first. */
export class IdempotencyRace extends Error {
  override readonly name = 'IdempotencyRace';
}
