/**
 * Credit balances in integer micro-dollars, and reservations for asynchronous work. Every method
 * is synchronous SQL, so a caller can run it inside the transaction that commits its effect (a
 * nested better-sqlite3 transaction becomes a savepoint). A balance never goes below zero: a debit
 * that does not fit is refused with 402 and changes nothing.
 *
 * Reads have no effect to commit with, so their small flat price is held in memory as pending
 * (`chargeRead`) and written with the next debit of the organization, or by `flush` (every second
 * and at shutdown): a read costs no SQLite write. Every balance this class reports or checks is
 * the stored one less what is pending, so pending charges can never overdraw it.
 */
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { HttpError } from '../http/errors.ts';
import type { DB } from '../storage/db.ts';
import { nowIso } from '../storage/db.ts';
import { usd } from './prices.ts';

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

export class CreditLedger {
  private readonly get: Statement;
  private readonly take: Statement;
  private readonly give: Statement;
  private readonly put: Statement;
  private readonly insertReservation: Statement;
  private readonly findReservation: Statement;
  private readonly closeReservation: Statement;
  private readonly takeUpTo: Statement;
  /** orgId -> micro-dollars of reads served but not yet written. */
  private readonly pending = new Map<string, number>();

  /**
   * @param onStoredChange told after each change of an organization's stored balance, so a cache
   *   of it (BillingService's) can drop the entry.
   */
  constructor(
    readonly db: DB,
    private readonly onStoredChange: (orgId: string) => void = () => {},
  ) {
    this.get = db.prepare('SELECT credit_balance_micros AS b FROM organizations WHERE id = ?').pluck();
    this.take = db
      .prepare(
        `UPDATE organizations SET credit_balance_micros = credit_balance_micros - ?
          WHERE id = ? AND credit_balance_micros >= ? RETURNING credit_balance_micros`,
      )
      .pluck();
    this.give = db
      .prepare('UPDATE organizations SET credit_balance_micros = credit_balance_micros + ? WHERE id = ? RETURNING credit_balance_micros')
      .pluck();
    this.takeUpTo = db.prepare(
      'UPDATE organizations SET credit_balance_micros = MAX(0, credit_balance_micros - ?) WHERE id = ?',
    );
    this.put = db.prepare('UPDATE organizations SET credit_balance_micros = ? WHERE id = ? RETURNING credit_balance_micros').pluck();
    this.insertReservation = db.prepare(
      `INSERT INTO credit_reservations (id, org_id, purpose, amount_micros, status, created_at)
       VALUES (?, ?, ?, ?, 'held', ?)`,
    );
    this.findReservation = db.prepare('SELECT * FROM credit_reservations WHERE id = ?');
    this.closeReservation = db.prepare(
      "UPDATE credit_reservations SET status = ?, cost_micros = ?, closed_at = ? WHERE id = ? AND status = 'held'",
    );
  }

  /** Balance in micro-dollars (pending read charges deducted); throws for an unknown organization. */
  balance(orgId: string): number {
    const b = this.get.get(orgId) as number | undefined;
    if (b === undefined) throw new Error(`no organization with id ${orgId}`);
    return b - (this.pending.get(orgId) ?? 0);
  }

  /** Debits `micros` (and any pending read charges) or returns undefined, changing nothing, when short. */
  tryDebit(orgId: string, micros: number): number | undefined {
    const pending = this.pending.get(orgId) ?? 0;
    const total = micros + pending;
    const left = this.take.get(total, orgId, total) as number | undefined;
    if (left !== undefined) {
      if (pending > 0) this.pending.delete(orgId);
      this.onStoredChange(orgId);
    }
    return left;
  }

  /** Debits `micros` and returns the new balance; 402 when the balance is short. */
  debit(orgId: string, micros: number): number {
    checkAmount(micros);
    const left = this.tryDebit(orgId, micros);
    if (left === undefined) throw new InsufficientCredit(this.balance(orgId), micros);
    return left;
  }

  /**
   * Pays for a read: true when the balance covers `micros`, which is then pending; false (nothing
   * changed) when it does not. No write; `storedBalance`, when the caller has just read it, saves
   * the SELECT.
   */
  chargeRead(orgId: string, micros: number, storedBalance?: number): boolean {
    const balance = storedBalance === undefined ? this.balance(orgId) : storedBalance - (this.pending.get(orgId) ?? 0);
    if (balance < micros) return false;
    this.pending.set(orgId, (this.pending.get(orgId) ?? 0) + micros);
    return true;
  }

  /** Gives a read's price back (the read failed). */
  refundRead(orgId: string, micros: number): void {
    const pending = this.pending.get(orgId) ?? 0;
    if (pending >= micros) {
      if (pending === micros) this.pending.delete(orgId);
      else this.pending.set(orgId, pending - micros);
    } else {
      this.pending.delete(orgId);
      this.credit(orgId, micros - pending);
    }
  }

  /**
   * Writes pending read charges; call inside a transaction. A charge larger than the stored
   * balance (an admin set it lower meanwhile) takes the balance to zero, never below.
   */
  flush(): void {
    for (const [orgId, micros] of this.pending) {
      this.takeUpTo.run(micros, orgId);
      this.onStoredChange(orgId);
    }
    this.pending.clear();
  }

  /** Adds credit (a grant or a refund); returns the new balance. */
  credit(orgId: string, micros: number): number {
    checkAmount(micros);
    const b = this.give.get(micros, orgId) as number | undefined;
    if (b === undefined) throw new Error(`no organization with id ${orgId}`);
    this.onStoredChange(orgId);
    return b - (this.pending.get(orgId) ?? 0);
  }

  /** Sets the balance; read charges pending until now are forgiven (the new balance is what counts). */
  set(orgId: string, micros: number): number {
    checkAmount(micros);
    const b = this.put.get(micros, orgId) as number | undefined;
    if (b === undefined) throw new Error(`no organization with id ${orgId}`);
    this.pending.delete(orgId);
    this.onStoredChange(orgId);
    return b;
  }

  /**
   * Holds `micros` for an asynchronous job (a practice set, a video): debited now, so concurrent
   * jobs cannot together overdraw the balance; 402 when it does not fit. Call inside the
   * transaction that records the job.
   */
  reserve(orgId: string, micros: number, purpose: string): Reservation {
    const run = this.db.transaction(() => {
      this.debit(orgId, micros);
      const id = randomUUID();
      this.insertReservation.run(id, orgId, purpose, micros, nowIso());
      return this.reservation(id)!;
    });
    return run();
  }

  reservation(id: string): Reservation | undefined {
    return this.findReservation.get(id) as Reservation | undefined;
  }

  /**
   * Settles a held reservation at the job's real cost: the unused part goes back to the balance;
   * a cost above the reservation takes the difference from the balance, as far as it reaches (the
   * balance never goes negative). Returns the cost actually charged.
   */
  settle(id: string, costMicros: number): { cost_micros: number; balance_micros: number } {
    checkAmount(costMicros);
    const run = this.db.transaction(() => {
      const r = this.held(id);
      let cost = costMicros;
      if (cost <= r.amount_micros) {
        if (r.amount_micros > cost) this.credit(r.org_id, r.amount_micros - cost);
      } else {
        const extra = Math.min(cost - r.amount_micros, this.balance(r.org_id));
        if (extra > 0) this.debit(r.org_id, extra);
        cost = r.amount_micros + extra;
      }
      this.closeReservation.run('settled', cost, nowIso(), id);
      return { cost_micros: cost, balance_micros: this.balance(r.org_id) };
    });
    return run();
  }

  /** Gives a held reservation back in full (the job failed or was cancelled). */
  refund(id: string): { balance_micros: number } {
    const run = this.db.transaction(() => {
      const r = this.held(id);
      const balance = this.credit(r.org_id, r.amount_micros);
      this.closeReservation.run('refunded', 0, nowIso(), id);
      return { balance_micros: balance };
    });
    return run();
  }

  private held(id: string): Reservation {
    const r = this.reservation(id);
    if (!r) throw new Error(`no credit reservation with id ${id}`);
    if (r.status !== 'held') throw new Error(`credit reservation ${id} is already ${r.status}`);
    return r;
  }
}

function checkAmount(micros: number): void {
  if (!Number.isSafeInteger(micros) || micros < 0) throw new Error(`credit amounts are non-negative integer micro-dollars, not ${micros}`);
}
