/**
 * Engine-independent pieces: the `?` -> $n rewriting of the PostgreSQL engine, parameter
 * normalization, and the FIFO lock behind the SQLite engine's transactions.
 */
import { describe, expect, it } from 'vitest';
import { FifoLock, normalizeParams } from '../../server/storage/engine-internals.ts';
import { isPostgresUrl } from '../../server/storage/open.ts';
import { toPostgresPlaceholders } from '../../server/storage/postgres-engine.ts';

describe('toPostgresPlaceholders', () => {
  it('numbers the placeholders in order', () => {
    expect(toPostgresPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toEqual({
      text: 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)',
      count: 3,
    });
    expect(toPostgresPlaceholders('SELECT 1')).toEqual({ text: 'SELECT 1', count: 0 });
  });

  it('leaves ? alone inside string literals, quoted identifiers and comments', () => {
    const sql = `SELECT 'why?' AS a, 'it''s ? here' AS b, "odd?name" AS c, ? AS d -- what?\n, /* ? */ ? AS e`;
    expect(toPostgresPlaceholders(sql)).toEqual({
      text: `SELECT 'why?' AS a, 'it''s ? here' AS b, "odd?name" AS c, $1 AS d -- what?\n, /* ? */ $2 AS e`,
      count: 2,
    });
  });

  it('copes with a placeholder right after a literal and with an unterminated literal', () => {
    expect(toPostgresPlaceholders(`SELECT ''||?`).text).toBe(`SELECT ''||$1`);
    expect(toPostgresPlaceholders(`SELECT 'x?`).count).toBe(0);
  });

  it('refuses numbered parameters, which are not portable', () => {
    expect(() => toPostgresPlaceholders('SELECT ?1')).toThrow(/numbered parameters/);
  });
});

describe('normalizeParams', () => {
  it('binds booleans as 1/0, undefined as NULL, Uint8Array as Buffer', () => {
    const [t, f, u, n, b] = normalizeParams([true, false, undefined, null, new Uint8Array([1, 2, 3]).subarray(1)]);
    expect([t, f, u, n]).toEqual([1, 0, null, null]);
    expect(Buffer.isBuffer(b)).toBe(true);
    expect([...(b as Buffer)]).toEqual([2, 3]);
  });

  it('refuses what one of the engines could not store the same way', () => {
    expect(() => normalizeParams([new Date() as never])).toThrow(TypeError);
    expect(() => normalizeParams([{ a: 1 } as never])).toThrow(TypeError);
    expect(() => normalizeParams(['a\0b'])).toThrow(/NUL/);
    expect(() => normalizeParams([Number.NaN])).toThrow(TypeError);
  });
});

describe('FifoLock', () => {
  it('hands the lock over in arrival order', async () => {
    const lock = new FifoLock();
    const order: number[] = [];
    let open!: () => void;
    const first = lock.run(() => new Promise<void>((r) => (open = r)));
    const rest = [1, 2, 3, 4].map((i) => lock.run(() => void order.push(i)));
    expect(lock.idle).toBe(false);
    await Promise.resolve();
    expect(order).toEqual([]);
    open();
    await Promise.all([first, ...rest]);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(lock.idle).toBe(true);
  });
});

describe('isPostgresUrl', () => {
  it('recognizes postgres:// and postgresql:// only', () => {
    expect(isPostgresUrl('postgres://127.0.0.1/x')).toBe(true);
    expect(isPostgresUrl('postgresql://u@h:5432/x')).toBe(true);
    expect(isPostgresUrl('mysql://h/x')).toBe(false);
    expect(isPostgresUrl(undefined)).toBe(false);
  });
});
