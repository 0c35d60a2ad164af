/**
 * Credit balances in integer micro-dollars, and reservations for asynchronous work. Every method
 * that touches storage takes an optional last `q`: a caller's transaction to join (so a charge
 * commits or rolls back with the effect it pays for), by default the engine. A balance never goes
 * below zero: a debit that does not fit is refused with 402 and changes nothing; the check and the
 * debit are one conditional UPDATE, so parallel debits on any number of instances cannot overdraw.
 *
 * Reads have no effect to commit with, so their small flat price is held in memory as pending
 * (`holdRead`) and written by `flush` (every second and at shutdown): a read costs no write. Every
 * balance this class reports or checks is the stored one less what this process has pending, so
 * its pending charges can never overdraw it. (Another instance's pending reads are not seen until
 * it flushes them: the flush then takes the balance to zero at most, never below.)
 */
import { randomUUID } from 'node:crypto';
import { noteChange } from '../auth/changes.ts';
import { HttpError } from '../http/errors.ts';
import type { Queryable, StorageEngine } from '../storage/engine.ts';
import { nowIso } from '../time.ts';
import { usd } from './prices.ts';
import { Serial } from './serial.ts';

export class InsufficientCredit extends HttpError {
  constructor(balanceMicros: number, requiredMicros: number) {
    super(402, 'Insufficient credit: the balance does not cover the price of this request', {
      balance: usd(balanceMicros),
      required: usd(requiredMicros),
    });
  }
}

export interface Reservation {
  id: string;
  org_id: string;
  purpose: string;
  amount_micros: number;
  status: 'held' | 'settled' | 'refunded';
  cost_micros: number | null;
  created_at: string;
  closed_at: string | null;
}

const SELECT_BALANCE = 'SELECT credit_balance_micros AS b FROM organizations WHERE id = ? LIMIT 1';
/** Takes `micros` only when the stored balance covers it and what is pending here (the last parameter). */
const TAKE = `UPDATE organizations SET credit_balance_micros = credit_balance_micros - ?
  WHERE id = ? AND credit_balance_micros >= ? RETURNING credit_balance_micros AS b`;
const GIVE = 'UPDATE organizations SET credit_balance_micros = credit_balance_micros + ? WHERE id = ? RETURNING credit_balance_micros AS b';
const PUT = 'UPDATE organizations SET credit_balance_micros = ? WHERE id = ? RETURNING credit_balance_micros AS b';
const TAKE_UP_TO = `UPDATE organizations SET credit_balance_micros = CASE WHEN credit_balance_micros > ? THEN credit_balance_micros - ? ELSE 0 END
  WHERE id = ?`;
const RESERVATION_COLUMNS = 'id, org_id, purpose, amount_micros, status, cost_micros, created_at, closed_at';

function add(m: Map<string, number>, orgId: string, micros: number): void {
  m.set(orgId, (m.get(orgId) ?? 0) + micros);
}

function subtract(m: Map<string, number>, orgId: string, micros: number): void {
  const left = (m.get(orgId) ?? 0) - micros;
  if (left > 0) m.set(orgId, left);
  else m.delete(orgId);
}

export class CreditLedger {
  /** orgId -> micro-dollars of reads served but not yet written. */
  private readonly pending = new Map<string, number>();
  /** orgId -> micro-dollars of reads a flush is writing now (still counted until it commits). */
  private readonly flushing = new Map<string, number>();
  private readonly flushes = new Serial();
  /** Flushes begun plus flushes ended: odd while one is writing. */
  private flushEpoch = 0;

  /**
   * @param onStoredChange told after each committed change of an organization's stored balance
   *   made by this process, so a cache of it (BillingService's) can drop the entry.
   * @param onSettled told after a settlement committed, with the cost charged: the spend chart
   *   (BillingService) records it under the endpoint that made the reservation.
   */
  constructor(
    readonly engine: StorageEngine,
    private readonly onStoredChange: (orgId: string) => void = () => {},
    private readonly onSettled: (orgId: string, purpose: string, costMicros: number) => void = () => {},
  ) {}

  /** Read charges of this process not yet in the stored balance. */
  unwritten(orgId: string): number {
    return (this.pending.get(orgId) ?? 0) + (this.flushing.get(orgId) ?? 0);
  }

  /** Balance in micro-dollars (pending read charges deducted); throws for an unknown organization. */
  async balance(orgId: string, q: Queryable = this.engine): Promise<number> {
    // The stored balance and what is unwritten must be seen at one point: a flush that writes
    // while the balance is read would count its charges twice or not at all. Read again until no
    // flush started or ended during the read (flushes are short and a second apart).
    for (let attempt = 0; ; attempt++) {
      const epoch = this.flushEpoch;
      const row = await q.get<{ b: number }>(SELECT_BALANCE, [orgId]);
      if (!row) throw new Error(`no organization with id ${orgId}`);
      if ((epoch === this.flushEpoch && epoch % 2 === 0) || attempt >= 20) return row.b - this.unwritten(orgId);
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  /** Debits `micros` or returns undefined, changing nothing, when the balance (less pending reads) is short. */
  async tryDebit(orgId: string, micros: number, q: Queryable = this.engine): Promise<number | undefined> {
    const pending = this.unwritten(orgId);
    const row = await q.get<{ b: number }>(TAKE, [micros, orgId, micros + pending]);
    if (!row) return undefined;
    q.afterCommit(() => this.onStoredChange(orgId));
    return row.b - pending;
  }

  /** Debits `micros` and returns the new balance; 402 when the balance is short. */
  async debit(orgId: string, micros: number, q: Queryable = this.engine): Promise<number> {
    checkAmount(micros);
    const left = await this.tryDebit(orgId, micros, q);
    if (left === undefined) throw new InsufficientCredit(await this.balance(orgId, q), micros);
    return left;
  }

  /**
   * Pays for a read against a stored balance the caller has just read (admission caches it): true
   * when it covers `micros` and what is already pending, which then includes `micros`; false
   * (nothing changed) when it does not. No storage: synchronous.
   */
  holdRead(orgId: string, micros: number, storedBalance: number): boolean {
    if (storedBalance - this.unwritten(orgId) < micros) return false;
    add(this.pending, orgId, micros);
    return true;
  }

  /** `holdRead` against the stored balance read now (or the one given). */
  async chargeRead(orgId: string, micros: number, storedBalance?: number, q: Queryable = this.engine): Promise<boolean> {
    if (storedBalance === undefined) {
      const row = await q.get<{ b: number }>(SELECT_BALANCE, [orgId]);
      if (!row) throw new Error(`no organization with id ${orgId}`);
      storedBalance = row.b;
    }
    return this.holdRead(orgId, micros, storedBalance);
  }

  /** Gives a read's price back (the read failed). */
  async refundRead(orgId: string, micros: number, q: Queryable = this.engine): Promise<void> {
    const pending = this.pending.get(orgId) ?? 0;
    if (pending >= micros) {
      subtract(this.pending, orgId, micros);
      return;
    }
    // Already written (or being written) by a flush: give the rest back in storage.
    this.pending.delete(orgId);
    await this.give(orgId, micros - pending, q);
  }

  /**
   * Writes pending read charges, in one transaction of its own; flushes never overlap. A charge
   * larger than the stored balance (an admin set it lower meanwhile, or another instance spent it)
   * takes the balance to zero, never below. On failure the charges stay pending.
   */
  flush(): Promise<void> {
    return this.flushes.run(() => this.flushOnce());
  }

  private async flushOnce(): Promise<void> {
    if (this.pending.size === 0) return;
    // Sorted: two instances flushing the same organizations lock their rows in the same order.
    const batch = [...this.pending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.pending.clear();
    for (const [orgId, micros] of batch) add(this.flushing, orgId, micros);
    this.flushEpoch++; // odd while a flush is writing (see balance)
    try {
      await this.engine.transaction(async (tx) => {
        for (const [orgId, micros] of batch) await tx.run(TAKE_UP_TO, [micros, micros, orgId]);
      });
    } catch (e) {
      for (const [orgId, micros] of batch) add(this.pending, orgId, micros);
      throw e;
    } finally {
      for (const [orgId, micros] of batch) subtract(this.flushing, orgId, micros);
      this.flushEpoch++;
    }
    for (const [orgId] of batch) this.onStoredChange(orgId);
  }

  /** Adds credit (a grant); returns the new balance. Other instances see it within CHANGE_CHECK_MS. */
  async credit(orgId: string, micros: number, q: Queryable = this.engine): Promise<number> {
    checkAmount(micros);
    return q.transaction(async (tx) => {
      const b = await this.give(orgId, micros, tx);
      await noteChange(tx);
      return b;
    });
  }

  /** Sets the balance; read charges pending until now are forgiven (the new balance is what counts). */
  async set(orgId: string, micros: number, q: Queryable = this.engine): Promise<number> {
    checkAmount(micros);
    return q.transaction(async (tx) => {
      const row = await tx.get<{ b: number }>(PUT, [micros, orgId]);
      if (!row) throw new Error(`no organization with id ${orgId}`);
      await noteChange(tx);
      tx.afterCommit(() => {
        this.pending.delete(orgId);
        this.onStoredChange(orgId);
      });
      return row.b;
    });
  }

  /**
   * Holds `micros` for an asynchronous job (a practice set, a video): debited now, so concurrent
   * jobs cannot together overdraw the balance; 402 when it does not fit. Pass the transaction that
   * records the job as `q`, so that both commit or neither does.
   */
  async reserve(orgId: string, micros: number, purpose: string, q: Queryable = this.engine): Promise<Reservation> {
    checkAmount(micros);
    return q.transaction(async (tx) => {
      await this.debit(orgId, micros, tx);
      const r: Reservation = {
        id: randomUUID(),
        org_id: orgId,
        purpose,
        amount_micros: micros,
        status: 'held',
        cost_micros: null,
        created_at: nowIso(),
        closed_at: null,
      };
      await tx.run(
        `INSERT INTO credit_reservations (id, org_id, purpose, amount_micros, status, created_at) VALUES (?, ?, ?, ?, 'held', ?)`,
        [r.id, r.org_id, r.purpose, r.amount_micros, r.created_at],
      );
      return r;
    });
  }

  reservation(id: string, q: Queryable = this.engine): Promise<Reservation | undefined> {
    return q.get<Reservation>(`SELECT ${RESERVATION_COLUMNS} FROM credit_reservations WHERE id = ? LIMIT 1`, [id]);
  }

  /**
   * Settles a held reservation at the job's real cost: the unused part goes back to the balance;
   * a cost above the reservation takes the difference from the balance, as far as it reaches (the
   * balance never goes negative). Returns the cost actually charged. The reservation is closed by
   * the first statement (`... WHERE status = 'held'`): of two instances settling or refunding it at
   * once, exactly one does; the other gets "already settled".
   */
  async settle(id: string, costMicros: number, q: Queryable = this.engine): Promise<{ cost_micros: number; balance_micros: number }> {
    checkAmount(costMicros);
    return q.transaction(async (tx) => {
      const r = await this.close(id, 'settled', tx);
      let cost = costMicros;
      if (cost <= r.amount_micros) {
        if (r.amount_micros > cost) await this.give(r.org_id, r.amount_micros - cost, tx);
      } else {
        // Locked until commit: the balance cannot shrink between this read and the debit.
        const row = await tx.get<{ b: number }>(`SELECT credit_balance_micros AS b FROM organizations WHERE id = ?${tx.dialect.forUpdate}`, [r.org_id]);
        const available = Math.max(0, (row?.b ?? 0) - this.unwritten(r.org_id));
        const extra = Math.min(cost - r.amount_micros, available);
        if (extra > 0) {
          await tx.run('UPDATE organizations SET credit_balance_micros = credit_balance_micros - ? WHERE id = ?', [extra, r.org_id]);
          tx.afterCommit(() => this.onStoredChange(r.org_id));
        }
        cost = r.amount_micros + extra;
      }
      await tx.run('UPDATE credit_reservations SET cost_micros = ? WHERE id = ?', [cost, id]);
      tx.afterCommit(() => this.onSettled(r.org_id, r.purpose, cost));
      return { cost_micros: cost, balance_micros: await this.balance(r.org_id, tx) };
    });
  }

  /** Gives a held reservation back in full (the job failed or was cancelled); exactly once, like `settle`. */
  async refund(id: string, q: Queryable = this.engine): Promise<{ balance_micros: number }> {
    return q.transaction(async (tx) => {
      const r = await this.close(id, 'refunded', tx);
      await tx.run('UPDATE credit_reservations SET cost_micros = 0 WHERE id = ?', [id]);
      return { balance_micros: await this.give(r.org_id, r.amount_micros, tx) };
    });
  }

  /** Closes a held reservation (one atomic UPDATE); throws when there is none or it is closed. */
  private async close(id: string, status: 'settled' | 'refunded', tx: Queryable): Promise<{ org_id: string; amount_micros: number; purpose: string }> {
    const r = await tx.get<{ org_id: string; amount_micros: number; purpose: string }>(
      `UPDATE credit_reservations SET status = ?, closed_at = ? WHERE id = ? AND status = 'held' RETURNING org_id, amount_micros, purpose`,
      [status, nowIso(), id],
    );
    if (r) return r;
    const existing = await this.reservation(id, tx);
    if (!existing) throw new Error(`no credit reservation with id ${id}`);
    throw new Error(`credit reservation ${id} is already ${existing.status}`);
  }

  /** Adds to the stored balance; returns the balance less pending reads. */
  private async give(orgId: string, micros: number, q: Queryable): Promise<number> {
    const row = await q.get<{ b: number }>(GIVE, [micros, orgId]);
    if (!row) throw new Error(`no organization with id ${orgId}`);
    q.afterCommit(() => this.onStoredChange(orgId));
    return row.b - this.unwritten(orgId);
  }
}

function checkAmount(micros: number): void {
  if (!Number.isSafeInteger(micros) || micros < 0) throw new Error(`credit amounts are non-negative integer micro-dollars, not ${micros}`);
}
