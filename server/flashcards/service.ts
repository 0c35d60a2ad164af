/**
 * The flashcard domain: a deck is made synchronously by the offline extractor from a journal or
 * text (long inputs in the worker pool, under a time limit for their size), paid and stored in
 * one transaction, then read, listed and deleted by the key that made it.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/keys.ts';
import { priceOf, usd } from '../billing/prices.ts';
import { invalid, notFound } from '../http/errors.ts';
import { IdempotencyStore, type IdempotentRequest, type StoredResponse } from '../http/idempotency.ts';
import { OwnedResources, type Charge } from '../jobs/paid-jobs.ts';
import type { JournalService } from '../journals/service.ts';
import { readSource } from '../sources/request.ts';
import { SourceTextError, type SourceInput } from '../sources/text-blocks.ts';
import { nowIso } from '../time.ts';
import type { StorageEngine } from '../storage/engine.ts';
import { WorkerTimeoutError, type WorkerPool } from '../workers/pool.ts';
import { extractFlashcards, extractOperation, type Flashcard } from './extract.ts';
import { flashcardEndpoints } from './endpoints.ts';
import type { DeckCreateResponse, DeckListItem, DeckResponse } from './schema.ts';
import { DeckStore, type DeckRow } from './store.ts';

export const FLASHCARDS_ENGINE = 'offline:extract';

/** Inputs up to this many characters are read inline (a few ms); longer ones in the worker pool. */
const INLINE_CHARS = 8 * 1024;

export interface CreateDeckInput {
  journal_id?: string;
  text?: string;
  count: number;
}

export class FlashcardService {
  readonly store: DeckStore;
  /** Idempotency-Key records of creates. */
  readonly idempotency: IdempotencyStore;
  /** Found, listed and deleted as every resource a key creates (server/jobs/paid-jobs.ts). */
  private readonly decks: OwnedResources<DeckRow>;

  constructor(
    engine: StorageEngine,
    private readonly journals: JournalService,
    private readonly pool: WorkerPool,
  ) {
    this.store = new DeckStore(engine);
    this.idempotency = new IdempotencyStore(engine);
    this.decks = new OwnedResources(this.store, 'Flashcard deck', notFound);
  }

  /**
   * Makes and stores a deck. With an Idempotency-Key a retry replays the first answer before any
   * work; otherwise the cards are extracted outside the transaction (no write lock held while a
   * worker reads a long text), then the charge (402: nothing stored) and the deck commit together.
   */
  create(p: Principal, input: CreateDeckInput, idem: IdempotentRequest | undefined, charge?: Charge): Promise<StoredResponse> {
    return this.idempotency.once(
      p.keyId,
      idem,
      async (tx, cards) => {
        await charge?.(tx);
        const id = randomUUID();
        const cost = priceOf(flashcardEndpoints.create.price);
        const createdAt = nowIso();
        const source = input.journal_id !== undefined ? 'journal' : 'text';
        await this.store.insert(
          { id, key_id: p.keyId, org_id: p.orgId, source, journal_id: input.journal_id ?? null, requested_count: input.count, cards, engine: FLASHCARDS_ENGINE, cost_micros: cost, created_at: createdAt },
          tx,
        );
        const body: DeckCreateResponse = {
          success: true,
          deck_id: id,
          flashcards: cards,
          cost: usd(cost),
          engine: FLASHCARDS_ENGINE,
          ...(input.journal_id !== undefined ? { journal_id: input.journal_id } : {}),
          timestamp: createdAt,
        };
        return { status: 200, body };
      },
      async () => this.extract(await readSource(this.journals, p, input), input.count, input.journal_id !== undefined ? 'journal_id' : 'text', p.orgId),
    );
  }

  /** Cards from `input`, off the event loop when it is long; 422 at `field` for unusable input. */
  private async extract(input: SourceInput, count: number, field: 'journal_id' | 'text', orgId: string): Promise<Flashcard[]> {
    const what = field === 'text' ? 'text' : 'journal';
    try {
      const size = 'text' in input ? input.text.length : JSON.stringify(input.doc).length;
      if (size <= INLINE_CHARS) return extractFlashcards(input, count);
      return await this.pool.run(extractOperation, { input, count }, this.pool.timeLimitMs(size), orgId);
    } catch (err) {
      if (err instanceof SourceTextError) {
        throw invalid(['body', field], `the ${what} has no text to take flashcards from`, 'value_error');
      }
      if (err instanceof WorkerTimeoutError) {
        throw invalid(['body', field], `the ${what} could not be read within its time limit (${(err.limitMs / 1000).toFixed(1)} s for this size)`, 'value_error.time_limit');
      }
      throw err;
    }
  }

  async get(p: Principal, id: string): Promise<Omit<DeckResponse, 'success' | 'timestamp'>> {
    const row = await this.decks.find(p, id);
    return {
      deck_id: row.id,
      flashcards: JSON.parse(row.cards) as Flashcard[],
      source: sourceOf(row),
      journal_id: row.journal_id,
      requested_count: Number(row.requested_count),
      cost: usd(row.cost_micros),
      engine: row.engine,
      created_at: row.created_at,
    };
  }

  /** The key's decks, newest first, from before `pageToken` (the previous page's next_page_token). */
  list(p: Principal, pageToken: number | undefined, pageSize: number): Promise<{ items: DeckListItem[]; next?: number }> {
    return this.decks.list(p, pageToken, pageSize, (r) => ({
      deck_id: r.id,
      source: sourceOf(r),
      journal_id: r.journal_id,
      card_count: Number(r.card_count),
      engine: r.engine,
      cost: usd(r.cost_micros),
      created_at: r.created_at,
    }));
  }

  /** Deletes a deck of this key (404 otherwise), paid in the same transaction (402 deletes nothing). */
  async delete(p: Principal, id: string, charge?: Charge): Promise<{ deck_id: string }> {
    await this.decks.delete(p, id, charge);
    return { deck_id: id };
  }
}

function sourceOf(row: DeckRow): 'journal' | 'text' {
  return row.source === 'journal' ? 'journal' : 'text';
}
