/** SQL of stored flashcard decks: one row per deck, its cards as JSON (a deck is written once). */
import { OwnedRowStore, type OwnedRow } from '../jobs/resource-store.ts';
import type { Queryable, StorageEngine } from '../storage/engine.ts';
import type { Flashcard } from './extract.ts';

export interface DeckRow extends OwnedRow {
  source: string;
  journal_id: string | null;
  requested_count: number;
  /** JSON array of Flashcard. */
  cards: string;
  card_count: number;
  engine: string;
  cost_micros: number;
}

export class DeckStore extends OwnedRowStore<DeckRow> {
  constructor(engine: StorageEngine) {
    super(engine, 'flashcard_decks');
  }

  async insert(
    row: { id: string; key_id: string; org_id: string; source: 'journal' | 'text'; journal_id: string | null; requested_count: number; cards: Flashcard[]; engine: string; cost_micros: number; created_at: string },
    q: Queryable = this.engine,
  ): Promise<void> {
    await q.run(
      `INSERT INTO flashcard_decks (id, key_id, org_id, source, journal_id, requested_count, cards, card_count, engine, cost_micros, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.key_id, row.org_id, row.source, row.journal_id, row.requested_count, JSON.stringify(row.cards), row.cards.length, row.engine, row.cost_micros, row.created_at],
    );
  }
}
