/**
 * Nested journals (docs/nesting.md): a journal's parent and its place among its siblings, kept
 * on its row (parent_id, order_index). A move is one transaction: the cycle check, the charge and
 * the new order of the parent's children. Deleting a parent takes its subtree to the trash and a
 * restore brings it back (JournalService.delete / restore, with tree.ts).
 */
import type { Principal } from '../../auth/keys.ts';
import type { Charge } from '../../billing/middleware.ts';
import { invalid } from '../../http/errors.ts';
import type { StorageEngine } from '../../storage/engine.ts';
import type { JournalService } from '../service.ts';
import type { JournalRow } from '../store.ts';
import { makesCycle, placeAt } from './tree.ts';

export class NestingService {
  constructor(
    private readonly engine: StorageEngine,
    private readonly journals: JournalService,
  ) {}

  async move(p: Principal, req: { journal_id: string; parent_item: string | null; index?: number }, charge?: Charge): Promise<{ row: JournalRow; order: string[] }> {
    const row = await this.journals.owned(p, req.journal_id);
    const parentId = req.parent_item ? req.parent_item : null;
    const store = this.journals.store;
    return this.engine.transaction(async (tx) => {
      if (parentId !== null && !(await store.findOwned(parentId, p.keyId, tx))) {
        throw invalid(['body', 'parent_item'], 'no journal with this id (or it is in the trash)', 'value_error.parent_not_found');
      }
      if (makesCycle(await store.parents(p.keyId, tx), row.id, parentId)) {
        throw invalid(['body', 'parent_item'], 'a journal cannot go under itself or one of its descendants', 'value_error.cycle');
      }
      await charge?.(tx);
      const siblings = await store.children(p.keyId, parentId, tx);
      const order = placeAt(
        siblings.map((s) => s.id),
        row.id,
        req.index,
      );
      const bySeq = new Map(siblings.map((s) => [s.id, s]));
      let moved: JournalRow | undefined;
      for (const [i, id] of order.entries()) {
        if (id === row.id) moved = await store.setPlace(tx, row.seq, parentId, i);
        else if (bySeq.get(id)!.order_index !== i) await store.setPlace(tx, bySeq.get(id)!.seq, parentId, i);
      }
      return { row: moved!, order };
      // Two moves at once must not make a cycle between them (each checks what the other writes):
      // the write lock at BEGIN on SQLite, SERIALIZABLE (re-run on conflict) on PostgreSQL.
    }, { immediate: true });
  }

  async children(p: Principal, journalId: string): Promise<JournalRow[]> {
    const row = await this.journals.owned(p, journalId);
    return this.journals.store.children(p.keyId, row.id);
  }
}
