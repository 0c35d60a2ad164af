/**
 * POST /interactives/flashcards/create: term/definition cards from a journal or text, made
 * synchronously by the offline extractor (server/flashcards/extract.ts) and paid per request.
 */
import { Router, type Request } from 'express';
import { z } from 'zod';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { priceOf, usd } from '../billing/prices.ts';
import { invalid, parseOr422 } from '../http/errors.ts';
import type { JournalService } from '../journals/service.ts';
import { WorkerRefusal, WorkerTimeoutError, type WorkerPool } from '../workers/pool.ts';
import { nowIso } from '../storage/db.ts';
import { OutlineError, type OutlineInput, type PMJSON } from '../video/outline.ts';
import { exactlyOneSource } from '../video/routes.ts';
import { extractFlashcards, FLASHCARD_COUNT_DEFAULT, FLASHCARD_COUNT_MAX, type Flashcard } from './extract.ts';

export const FLASHCARDS_ENDPOINT = 'POST /interactives/flashcards/create' as const;
export const FLASHCARDS_ENGINE = 'offline:extract';
/** Longest `text` accepted (characters). */
export const MAX_FLASHCARD_TEXT_CHARS = 100_000;

const createBody = z.object({
  journal_id: z.string().min(1).max(200).optional(),
  text: z.string().max(MAX_FLASHCARD_TEXT_CHARS, `text is limited to ${MAX_FLASHCARD_TEXT_CHARS} characters`).optional(),
  count: z.number().int().min(1).max(FLASHCARD_COUNT_MAX).default(FLASHCARD_COUNT_DEFAULT),
});

/** Inputs up to this many characters are read inline (a few ms); longer ones in the worker pool. */
const INLINE_CHARS = 8 * 1024;

export function flashcardRoutes(journals: JournalService, pool: WorkerPool): Router {
  const r = Router();

  /** Cards from `input`, off the event loop when it is long; its size sets the time limit. */
  async function extract(input: OutlineInput, count: number): Promise<Flashcard[]> {
    const size = 'text' in input ? input.text.length : JSON.stringify(input.doc).length;
    if (size <= INLINE_CHARS) return extractFlashcards(input, count);
    try {
      return await pool.run<Flashcard[]>('flashcards.extract', { input, count }, pool.timeLimitMs(size));
    } catch (err) {
      if (err instanceof WorkerRefusal && err.kind === 'OutlineError') throw new OutlineError(err.message);
      throw err;
    }
  }

  r.post('/interactives/flashcards/create', async (req: Request, res) => {
    const b = parseOr422(createBody, req.body === undefined ? {} : req.body, ['body']);
    exactlyOneSource(b);
    let input: OutlineInput;
    if (b.journal_id !== undefined) {
      const row = await journals.owned(principalOf(req), b.journal_id);
      input = { doc: (await journals.model(row)).model as PMJSON };
    } else {
      input = { text: b.text! };
    }
    const field = b.journal_id !== undefined ? 'journal_id' : 'text';
    let flashcards;
    try {
      flashcards = await extract(input, b.count);
    } catch (err) {
      if (err instanceof OutlineError) {
        throw invalid(['body', field], `the ${field === 'text' ? 'text' : 'journal'} has no text to take flashcards from`, 'value_error');
      }
      if (err instanceof WorkerTimeoutError) {
        throw invalid(['body', field], `the ${field === 'text' ? 'text' : 'journal'} could not be read within its time limit (${(err.limitMs / 1000).toFixed(1)} s for this size)`, 'value_error.time_limit');
      }
      throw err;
    }
    // Paid once the cards are made (402 when the balance is short, nothing returned).
    await chargeFor(req)?.();
    res.json({
      success: true,
      flashcards,
      cost: usd(priceOf(FLASHCARDS_ENDPOINT)),
      engine: FLASHCARDS_ENGINE,
      ...(b.journal_id !== undefined ? { journal_id: b.journal_id } : {}),
      timestamp: nowIso(),
    });
  });

  return r;
}
