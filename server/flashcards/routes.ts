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
import { nowIso } from '../storage/db.ts';
import { OutlineError, type OutlineInput, type PMJSON } from '../video/outline.ts';
import { exactlyOneSource } from '../video/routes.ts';
import { extractFlashcards, FLASHCARD_COUNT_DEFAULT, FLASHCARD_COUNT_MAX } from './extract.ts';

export const FLASHCARDS_ENDPOINT = 'POST /interactives/flashcards/create' as const;
export const FLASHCARDS_ENGINE = 'offline:extract';
/** Longest `text` accepted (characters). */
export const MAX_FLASHCARD_TEXT_CHARS = 100_000;

const createBody = z.object({
  journal_id: z.string().min(1).max(200).optional(),
  text: z.string().max(MAX_FLASHCARD_TEXT_CHARS, `text is limited to ${MAX_FLASHCARD_TEXT_CHARS} characters`).optional(),
  count: z.number().int().min(1).max(FLASHCARD_COUNT_MAX).default(FLASHCARD_COUNT_DEFAULT),
});

export function flashcardRoutes(journals: JournalService): Router {
  const r = Router();

  r.post('/interactives/flashcards/create', (req: Request, res) => {
    const b = parseOr422(createBody, req.body === undefined ? {} : req.body, ['body']);
    exactlyOneSource(b);
    let input: OutlineInput;
    if (b.journal_id !== undefined) {
      const row = journals.owned(principalOf(req), b.journal_id);
      input = { doc: journals.model(row).model as PMJSON };
    } else {
      input = { text: b.text! };
    }
    let flashcards;
    try {
      flashcards = extractFlashcards(input, b.count);
    } catch (err) {
      if (err instanceof OutlineError) {
        const field = b.journal_id !== undefined ? 'journal_id' : 'text';
        throw invalid(['body', field], `the ${field === 'text' ? 'text' : 'journal'} has no text to take flashcards from`, 'value_error');
      }
      throw err;
    }
    // Paid once the cards are made (402 when the balance is short, nothing returned).
    chargeFor(req)?.();
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
