/**
 * One storage interface, two engines: every test here runs, with the same assertions, on SQLite
 * and on PostgreSQL (skipped, with the way to enable it, when no PostgreSQL server is available).
 * The tables are those of the real schema, created by each engine's migrations.
 */
import { randomUUID } from 'node:crypto';
import { setImmediate as tick } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageUnavailableError, TransactionMisuseError, type Queryable, type StorageEngine } from '../../server/storage/engine.ts';
import { engineCases, type FreshDatabase } from '../helpers/databases.ts';

const cases = await engineCases();

const insertOrgSql = 'INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)';

async function newOrg(q: Queryable, name = 'org'): Promise<string> {
  const id = randomUUID();
  await q.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [id, name, 'developer', new Date().toISOString()]);
  return id;
}

async function newKey(q: Queryable, orgId: string): Promise<string> {
  const id = randomUUID();
  await q.run('INSERT INTO api_keys (id, org_id, name, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
    id,
    orgId,
    null,
    randomUUID(),
    'sk_',
    new Date().toISOString(),
  ]);
  return id;
}

async function orgExists(q: Queryable, id: string): Promise<boolean> {
  return (await q.get('SELECT id FROM organizations WHERE id = ?', [id])) !== undefined;
}

describe.each(cases)('$title engine', (c) => {
  describe.skipIf(!!c.skipReason)('', () => {
    let db: FreshDatabase;
    let engine: StorageEngine;

    beforeAll(async () => {
      db = await c.freshDatabase();
      engine = await db.open();
      expect(engine.kind).toBe(c.kind);
    });
    afterAll(async () => {
      await db?.drop();
    });

    describe('rows', () => {
      it('round-trips text (quotes, unicode) and NULL', async () => {
        const name = `O'Brien "quoted" — ünïcödé 🎓 ?`;
        const orgId = await newOrg(engine, name);
        const keyId = await newKey(engine, orgId);
        const org = await engine.get<{ name: string; tier: string }>('SELECT name, tier FROM organizations WHERE id = ?', [orgId]);
        expect(org).toEqual({ name, tier: 'developer' });
        const key = await engine.get('SELECT name, revoked_at FROM api_keys WHERE id = ?', [keyId]);
        expect(key).toEqual({ name: null, revoked_at: null });
        expect(await engine.get('SELECT id FROM organizations WHERE id = ?', ['nope'])).toBeUndefined();
        expect(await engine.all('SELECT id FROM organizations WHERE id = ?', ['nope'])).toEqual([]);
      });

      it('round-trips integers past 2^31 up to 2^53 - 1 as numbers, bigint parameters included', async () => {
        const values = [2 ** 31, 2 ** 31 + 7, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER, -(2 ** 33)];
        const ids: string[] = [];
        for (const v of values) {
          const id = randomUUID();
          ids.push(id);
          await engine.run(
            `INSERT INTO jobs (id, kind, payload, state, attempts, max_attempts, run_at, lease_expires_at, created_at, updated_at)
             VALUES (?, 'test', '{}', 'queued', 0, ?, ?, ?, 'now', 'now')`,
            [id, 5, v, BigInt(v) - 1n],
          );
        }
        for (const [i, v] of values.entries()) {
          const row = await engine.get<{ run_at: number; lease_expires_at: number; max_attempts: number; attempts: number }>(
            'SELECT run_at, lease_expires_at, max_attempts, attempts FROM jobs WHERE id = ?',
            [ids[i]!],
          );
          expect(row).toEqual({ run_at: v, lease_expires_at: v - 1, max_attempts: 5, attempts: 0 });
          expect(typeof row!.run_at).toBe('number');
        }
        const big = await engine.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs WHERE run_at >= ?', [2 ** 31]);
        expect(big).toEqual({ n: 4 });
      });

      it('round-trips blobs byte for byte (Buffer and Uint8Array in, Buffer out), empty ones included', async () => {
        const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
        const large = Buffer.alloc(300_000);
        for (let i = 0; i < large.length; i++) large[i] = (i * 2654435761) >>> 24;
        const view = new Uint8Array([9, 0, 255, 0, 7, 1]).subarray(1, 5);
        const cases: [number, Uint8Array][] = [
          [1_000_001, every],
          [1_000_002, large],
          [1_000_003, view],
          [1_000_004, new Uint8Array(0)],
        ];
        for (const [seq, data] of cases) {
          await engine.run('INSERT INTO journal_snapshots (journal_seq, revision, data) VALUES (?, ?, ?)', [seq, 1, data]);
        }
        for (const [seq, data] of cases) {
          const row = await engine.get<{ data: Buffer }>('SELECT data FROM journal_snapshots WHERE journal_seq = ?', [seq]);
          expect(Buffer.isBuffer(row!.data)).toBe(true);
          expect(row!.data.equals(Buffer.from(data))).toBe(true);
        }
        const size = await engine.get('SELECT LENGTH(data) AS bytes FROM journal_snapshots WHERE journal_seq = ?', [1_000_002]);
        expect(size).toEqual({ bytes: large.length });
      });

      it('round-trips floats exactly', async () => {
        const orgId = await newOrg(engine);
        const keyId = await newKey(engine, orgId);
        const id = randomUUID();
        await engine.run(
          `INSERT INTO videos (id, key_id, org_id, request, status, completion_percentage, created_at, updated_at)
           VALUES (?, ?, ?, '{}', 'pending', ?, 'now', 'now')`,
          [id, keyId, orgId, 0.1 + 0.2],
        );
        expect(await engine.get('SELECT completion_percentage AS p FROM videos WHERE id = ?', [id])).toEqual({ p: 0.1 + 0.2 });
      });

      it('gives counts, sums, comparisons and booleans the same shape: numbers, 1 and 0', async () => {
        const a = await newOrg(engine, 'shape');
        const b = await newOrg(engine, 'shape');
        const row = await engine.get(
          `SELECT COUNT(*) AS n, SUM(credit_balance_micros) AS total,
                  EXISTS (SELECT 1 FROM organizations WHERE id = ?) AS present,
                  CASE WHEN COUNT(*) > 5 THEN 1 ELSE 0 END AS many
             FROM organizations WHERE id IN (?, ?)`,
          [a, a, b],
        );
        expect(row).toEqual({ n: 2, total: 10_000_000, present: 1, many: 0 });
        // A boolean parameter is stored as 1 / 0.
        await engine.run('UPDATE organizations SET credit_balance_micros = ? WHERE id = ?', [true, a]);
        expect(await engine.get('SELECT credit_balance_micros AS b FROM organizations WHERE id = ?', [a])).toEqual({ b: 1 });
      });

      it('keeps the case of double-quoted aliases', async () => {
        const orgId = await newOrg(engine);
        const row = await engine.get('SELECT id AS "orgId", tier AS "orgTier" FROM organizations WHERE id = ?', [orgId]);
        expect(row).toEqual({ orgId, orgTier: 'developer' });
      });

      it('leaves ? inside string literals, quoted identifiers and comments alone', async () => {
        const orgId = await newOrg(engine, 'who?');
        const row = await engine.get(
          `SELECT 'why?' AS q, 'it''s ? here' AS "odd?", name -- trailing ? comment
             FROM organizations /* ? */ WHERE id = ? AND name = 'who?'`,
          [orgId],
        );
        expect(row).toEqual({ q: 'why?', 'odd?': "it's ? here", name: 'who?' });
      });

      it('reports changes, and all/get on a statement without result rows run it and return nothing', async () => {
        const a = await newOrg(engine, 'changes');
        const b = await newOrg(engine, 'changes');
        expect(await engine.run('UPDATE organizations SET tier = ? WHERE id IN (?, ?)', ['scale', a, b])).toEqual({ changes: 2 });
        expect(await engine.run('UPDATE organizations SET tier = ? WHERE id = ?', ['scale', 'nope'])).toEqual({ changes: 0 });
        expect(await engine.all('UPDATE organizations SET tier = ? WHERE id = ?', ['enterprise', a])).toEqual([]);
        expect(await engine.get('UPDATE organizations SET tier = ? WHERE id = ?', ['enterprise', b])).toBeUndefined();
        expect(await engine.all('SELECT tier FROM organizations WHERE id IN (?, ?)', [a, b])).toEqual([{ tier: 'enterprise' }, { tier: 'enterprise' }]);
      });

      it('refuses a wrong number of parameters with the same error', async () => {
        await expect(engine.get('SELECT id FROM organizations WHERE id = ?', ['a', 'b'])).rejects.toThrow(/Too many parameter values/);
        await expect(engine.get('SELECT id FROM organizations WHERE id = ? AND name = ?', ['a'])).rejects.toThrow(/Too few parameter values/);
      });
    });

    describe('RETURNING and ON CONFLICT', () => {
      it('returns generated keys and updated values', async () => {
        const orgId = await newOrg(engine);
        const keyId = await newKey(engine, orgId);
        const insert = `INSERT INTO journals (id, key_id, org_id, title, created_at, updated_at, revision)
                        VALUES (?, ?, ?, ?, 'now', 'now', 1) RETURNING seq`;
        const first = await engine.get<{ seq: number }>(insert, [randomUUID(), keyId, orgId, 'a']);
        const second = await engine.get<{ seq: number }>(insert, [randomUUID(), keyId, orgId, 'b']);
        expect(typeof first!.seq).toBe('number');
        expect(second!.seq).toBeGreaterThan(first!.seq);

        const take = `UPDATE organizations SET credit_balance_micros = credit_balance_micros - ?
                       WHERE id = ? AND credit_balance_micros >= ? RETURNING credit_balance_micros AS left`;
        expect(await engine.get(take, [3_000_000, orgId, 3_000_000])).toEqual({ left: 2_000_000 });
        expect(await engine.get(take, [3_000_000, orgId, 3_000_000])).toBeUndefined();
        expect(await engine.all('DELETE FROM journals WHERE key_id = ? RETURNING title', [keyId])).toHaveLength(2);
      });

      it('upserts with ON CONFLICT ... DO UPDATE and skips with DO NOTHING', async () => {
        const upsert = `INSERT INTO journal_markdown_cache (journal_seq, revision, markdown) VALUES (?, ?, ?)
                        ON CONFLICT (journal_seq) DO UPDATE SET revision = excluded.revision, markdown = excluded.markdown`;
        await engine.run(upsert, [77, 1, '# one']);
        expect(await engine.run(upsert, [77, 2, '# two'])).toEqual({ changes: 1 });
        expect(await engine.all('SELECT revision, markdown FROM journal_markdown_cache WHERE journal_seq = ?', [77])).toEqual([{ revision: 2, markdown: '# two' }]);
        const skip = 'INSERT INTO journal_markdown_cache (journal_seq, revision, markdown) VALUES (?, ?, ?) ON CONFLICT DO NOTHING';
        expect(await engine.run(skip, [77, 3, '# three'])).toEqual({ changes: 0 });
        expect(await engine.get('SELECT revision FROM journal_markdown_cache WHERE journal_seq = ?', [77])).toEqual({ revision: 2 });
      });
    });

    describe('transactions', () => {
      it('commits and returns the function value', async () => {
        const id = randomUUID();
        const out = await engine.transaction(async (tx) => {
          await newOrg(tx);
          await tx.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [id, 'committed', 'scale', 'now']);
          return (await tx.get<{ name: string }>('SELECT name FROM organizations WHERE id = ?', [id]))!.name;
        });
        expect(out).toBe('committed');
        expect(await orgExists(engine, id)).toBe(true);
      });

      it('rolls back everything and rethrows when the function throws', async () => {
        let id = '';
        const boom = new Error('boom');
        await expect(
          engine.transaction(async (tx) => {
            id = await newOrg(tx);
            await tx.run('UPDATE organizations SET name = ? WHERE id = ?', ['renamed', id]);
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect(await orgExists(engine, id)).toBe(false);
      });

      it('a failing statement rolls the whole transaction back, even when the function catches its error', async () => {
        const existing = await newOrg(engine);
        let first = '';
        let caught: unknown;
        let refused: unknown;
        const result = engine.transaction(async (tx) => {
          first = await newOrg(tx);
          try {
            await tx.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [existing, 'dup', 'developer', 'now']);
          } catch (e) {
            caught = e;
          }
          refused = await tx.get('SELECT 1 AS one').catch((e) => e);
          return 'looks fine';
        });
        const failure = await result.then(
          () => 'committed',
          (e) => e,
        );
        expect(failure).toBe(caught);
        expect(String((caught as Error).message)).toMatch(/unique|duplicate/i);
        expect(refused).toBeInstanceOf(TransactionMisuseError);
        expect(await orgExists(engine, first)).toBe(false);
      });

      it('rolls back on a constraint violation the function lets through', async () => {
        let first = '';
        await expect(
          engine.transaction(async (tx) => {
            first = await newOrg(tx);
            await tx.run('UPDATE organizations SET credit_balance_micros = ? WHERE id = ?', [-1, first]); // CHECK (>= 0)
          }),
        ).rejects.toThrow(/check/i);
        expect(await orgExists(engine, first)).toBe(false);
      });

      it('nested transactions are savepoints: the inner one rolls back alone, or commits with the outer', async () => {
        let kept = '';
        let undone = '';
        let inner = '';
        const expected = new Error('inner fails');
        await engine.transaction(async (tx) => {
          kept = await newOrg(tx);
          await expect(
            tx.transaction(async (t2) => {
              undone = await newOrg(t2);
              throw expected;
            }),
          ).rejects.toBe(expected);
          // An expected failure (a duplicate) recovered inside a nested transaction.
          await expect(tx.transaction((t2) => t2.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [kept, 'dup', 'developer', 'now']))).rejects.toThrow(
            /unique|duplicate/i,
          );
          inner = await tx.transaction(async (t2) => newOrg(t2));
        });
        expect(await orgExists(engine, kept)).toBe(true);
        expect(await orgExists(engine, undone)).toBe(false);
        expect(await orgExists(engine, inner)).toBe(true);

        let innerOfFailed = '';
        await expect(
          engine.transaction(async (tx) => {
            innerOfFailed = await tx.transaction(async (t2) => newOrg(t2));
            throw new Error('outer fails');
          }),
        ).rejects.toThrow('outer fails');
        expect(await orgExists(engine, innerOfFailed)).toBe(false);
      });

      it('refuses, instead of deadlocking, calls to the engine or an outer transaction from inside a transaction function', async () => {
        await engine.transaction(async (tx) => {
          await expect(engine.get('SELECT 1 AS one')).rejects.toBeInstanceOf(TransactionMisuseError);
          await expect(engine.transaction(async () => 1)).rejects.toBeInstanceOf(TransactionMisuseError);
          await tx.transaction(async (t2) => {
            await expect(tx.get('SELECT 1 AS one')).rejects.toBeInstanceOf(TransactionMisuseError);
            await expect(t2.get('SELECT 1 AS one')).resolves.toEqual({ one: 1 });
          });
          await expect(tx.transaction(async () => 1, { immediate: true })).rejects.toBeInstanceOf(TransactionMisuseError);
        });
        // The refusals were not statement failures: the transaction committed.
        let leaked: Queryable | undefined;
        await engine.transaction(async (tx) => void (leaked = tx));
        await expect(leaked!.get('SELECT 1 AS one')).rejects.toBeInstanceOf(TransactionMisuseError);
        // Work that outlives its transaction may use the engine.
        const { later } = await engine.transaction(async () => ({ later: tick().then(() => engine.get('SELECT 1 AS one')) }));
        await expect(later).resolves.toEqual({ one: 1 });
      });

      it('keeps refusing calls from inside after other transactions ended, also of another engine meanwhile', async () => {
        // The check's storage is switched on only while transaction functions run (issue 33):
        // each new transaction switches it on again, and one that ends does not switch it off
        // under another still running.
        for (let i = 0; i < 3; i++) {
          await engine.transaction(async () => {
            await expect(engine.get('SELECT 1 AS one')).rejects.toBeInstanceOf(TransactionMisuseError);
          });
        }
        const otherDb = await c.freshDatabase();
        const other = await otherDb.open();
        try {
          let enter!: () => void;
          const entered = new Promise<void>((r) => (enter = r));
          let release!: () => void;
          const gate = new Promise<void>((r) => (release = r));
          const outer = engine.transaction(async () => {
            enter();
            await gate;
            await expect(engine.get('SELECT 1 AS one')).rejects.toBeInstanceOf(TransactionMisuseError);
            return 'outer';
          });
          await entered;
          await other.transaction(async (tx) => tx.get('SELECT 1 AS one'));
          release();
          await expect(outer).resolves.toBe('outer');
          await expect(engine.get('SELECT 1 AS one')).resolves.toEqual({ one: 1 });
        } finally {
          await other.close();
          await otherDb.drop();
        }
      });

      it('a nested transaction left running after its outer one failed cannot write outside any transaction', async () => {
        const id = randomUUID();
        let inner: Promise<unknown> | undefined;
        await expect(
          engine.transaction(async (tx) => {
            inner = tx
              .transaction(async (t2) => {
                for (let i = 0; i < 5; i++) await tick();
                await t2.run(insertOrgSql, [id, 'escaped', 'developer', 'now']);
              })
              .catch((e) => e);
            throw new Error('outer fails early');
          }),
        ).rejects.toThrow('outer fails early');
        expect(await inner).toBeInstanceOf(TransactionMisuseError);
        expect(await orgExists(engine, id)).toBe(false);
      });

      it('waits for statements the function did not await before committing (and fails if one failed)', async () => {
        const ids = [randomUUID(), randomUUID(), randomUUID()];
        await engine.transaction(async (tx) => {
          for (const id of ids) void tx.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [id, 'loose', 'developer', 'now']);
        });
        for (const id of ids) expect(await orgExists(engine, id)).toBe(true);

        const fresh = randomUUID();
        await expect(
          engine.transaction(async (tx) => {
            void tx.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [fresh, 'loose', 'developer', 'now']);
            void tx.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [ids[0]!, 'dup', 'developer', 'now']).catch(() => {});
          }),
        ).rejects.toThrow(/unique|duplicate/i);
        expect(await orgExists(engine, fresh)).toBe(false);
      });

      it('statements outside a transaction never join it nor see its uncommitted writes', async () => {
        const inside = randomUUID();
        const outside = randomUUID();
        let seen: unknown = 'not run';
        const tx = engine.transaction(async (t) => {
          await t.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [inside, 'inside', 'developer', 'now']);
          for (let i = 0; i < 5; i++) await tick();
          throw new Error('roll back');
        });
        const out = engine.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [outside, 'outside', 'developer', 'now']);
        const look = engine.get('SELECT id FROM organizations WHERE id = ?', [inside]).then((r) => (seen = r));
        await expect(tx).rejects.toThrow('roll back');
        await out;
        await look;
        expect(seen).toBeUndefined();
        expect(await orgExists(engine, inside)).toBe(false);
        expect(await orgExists(engine, outside)).toBe(true);
      });

      it('serializes 50 concurrent read-modify-write transactions (SELECT ... dialect.forUpdate)', async () => {
        const orgId = await newOrg(engine);
        await engine.run("INSERT INTO rate_counters (org_id, endpoint, win, window_start, count) VALUES (?, 'x', 'minute', 0, 0)", [orgId]);
        await Promise.all(
          Array.from({ length: 50 }, () =>
            engine.transaction(async (tx) => {
              const row = await tx.get<{ count: number }>(
                `SELECT count FROM rate_counters WHERE org_id = ? AND endpoint = 'x' AND win = 'minute'${tx.dialect.forUpdate}`,
                [orgId],
              );
              await tick(); // give every other transaction the chance to interleave
              await tx.run("UPDATE rate_counters SET count = ? WHERE org_id = ? AND endpoint = 'x' AND win = 'minute'", [row!.count + 1, orgId]);
            }),
          ),
        );
        expect(await engine.get('SELECT count FROM rate_counters WHERE org_id = ?', [orgId])).toEqual({ count: 50 });
      });

      it('claims queued rows once each with dialect.forUpdateSkipLocked, from parallel claimers', async () => {
        const kind = `claim-${randomUUID()}`;
        for (let i = 0; i < 10; i++) {
          await engine.run(
            `INSERT INTO jobs (id, kind, payload, state, max_attempts, run_at, created_at, updated_at) VALUES (?, ?, '{}', 'queued', 1, ?, 'now', 'now')`,
            [randomUUID(), kind, i],
          );
        }
        const claim = `UPDATE jobs SET state = 'running', attempts = attempts + 1
                        WHERE id = (SELECT id FROM jobs WHERE kind = ? AND state = 'queued' ORDER BY run_at LIMIT 1${engine.dialect.forUpdateSkipLocked})
                        RETURNING id`;
        const claimed: string[] = [];
        for (let round = 0; round < 50 && claimed.length < 10; round++) {
          const got = await Promise.all(Array.from({ length: 4 }, () => engine.get<{ id: string }>(claim, [kind])));
          for (const g of got) if (g) claimed.push(g.id);
        }
        expect(claimed).toHaveLength(10);
        expect(new Set(claimed).size).toBe(10);
        expect(await engine.get('SELECT COUNT(*) AS n, MAX(attempts) AS most FROM jobs WHERE kind = ?', [kind])).toEqual({ n: 10, most: 1 });
      });

      it('immediate transactions that read then write behave as if alone: one of several concurrent bootstraps inserts', async () => {
        const name = `boot-${randomUUID()}`;
        const contenders = 4;
        let arrived = 0;
        let everyoneRead!: () => void;
        const barrier = new Promise<void>((r) => (everyoneRead = r));
        let runs = 0;
        const results = await Promise.all(
          Array.from({ length: contenders }, (_, i) =>
            engine.transaction(
              async (tx) => {
                runs++;
                const n = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM organizations WHERE name = ?', [name]);
                // On PostgreSQL all first runs read before anyone writes (a real race); SQLite runs them one at a time.
                if (engine.kind === 'postgres' && ++arrived <= contenders) {
                  if (arrived === contenders) everyoneRead();
                  await barrier;
                }
                if (n!.n > 0) return 'existed';
                await tx.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [randomUUID(), name, 'developer', String(i)]);
                return 'created';
              },
              { immediate: true },
            ),
          ),
        );
        expect(results.filter((r) => r === 'created')).toHaveLength(1);
        expect(await engine.get('SELECT COUNT(*) AS n FROM organizations WHERE name = ?', [name])).toEqual({ n: 1 });
        if (engine.kind === 'postgres') expect(runs).toBeGreaterThan(contenders); // serialization failures were retried
        else expect(runs).toBe(contenders);
      });
    });

    describe('closing', () => {
      it('finishes the work under way, then refuses with StorageUnavailableError (closed)', async () => {
        const other = await c.freshDatabase();
        try {
          const e = await other.open();
          const id = randomUUID();
          const pending = e.transaction(async (tx) => {
            await tick();
            await tx.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [id, 'late', 'developer', 'now']);
            await tick();
            return tx.get('SELECT name FROM organizations WHERE id = ?', [id]);
          });
          const closed = e.close();
          await expect(pending).resolves.toEqual({ name: 'late' });
          await closed;
          const refusal = await e.get('SELECT 1 AS one').catch((x) => x);
          expect(refusal).toBeInstanceOf(StorageUnavailableError);
          expect(refusal.reason).toBe('closed');
          await expect(e.transaction(async () => 1)).rejects.toBeInstanceOf(StorageUnavailableError);
          // The committed work is there for the next engine opened on the database.
          const again = await other.open();
          expect(await orgExists(again, id)).toBe(true);
        } finally {
          await other.drop();
        }
      });
    });
  });
});
