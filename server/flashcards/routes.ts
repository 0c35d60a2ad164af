/**
 * Flashcard decks: POST /interactives/flashcards/create makes and stores a deck (synchronously,
 * paid per request, Idempotency-Key honoured); a deck is then read, listed and deleted by id.
 */
import { Router, type Request } from 'express';
import * as z from 'zod';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { parseOr422 } from '../http/errors.ts';
import { pageQuery } from '../http/paging.ts';
import { idempotencyOf } from '../http/idempotency.ts';
import { exactlyOneSource } from '../sources/request.ts';
import { nowIso } from '../time.ts';
import { FLASHCARD_COUNT_DEFAULT, FLASHCARD_COUNT_MAX } from './extract.ts';
import type { DeckDeleteResponse, DeckListResponse, DeckResponse } from './schema.ts';
import type { FlashcardService } from './service.ts';

/** Longest `text` accepted (characters). */
export const MAX_FLASHCARD_TEXT_CHARS = 100_000;

export const createBody = z.object({
  journal_id: z.string().min(1).max(200).optional(),
  text: z.string().max(MAX_FLASHCARD_TEXT_CHARS, `text is limited to ${MAX_FLASHCARD_TEXT_CHARS} characters`).optional(),
  count: z.number().int().min(1).max(FLASHCARD_COUNT_MAX).default(FLASHCARD_COUNT_DEFAULT),
});

export function flashcardRoutes(flashcards: FlashcardService): Router {
  const r = Router();

  r.post('/interactives/flashcards/create', async (req: Request, res) => {
    const raw = req.body === undefined ? {} : req.body;
    const b = parseOr422(createBody, raw, ['body']);
    exactlyOneSource(b);
    // Paid once the cards are made (402 when the balance is short: nothing stored or returned).
    const out = await flashcards.create(principalOf(req), b, idempotencyOf(req, raw), chargeFor(req));
    res.status(out.status).json(out.body);
  });

  // Before `/:deck_id`, which would take "list" for an id.
  r.get('/interactives/flashcards/list', async (req, res) => {
    const q = parseOr422(pageQuery, req.query, ['query']);
    const page = await flashcards.list(principalOf(req), q.page_token, q.page_size);
    const answer: DeckListResponse = {
      success: true,
      message: `${page.decks.length} flashcard decks`,
      decks: page.decks,
      ...(page.next !== undefined ? { next_page_token: page.next } : {}),
    };
    res.json(answer);
  });

  r.get('/interactives/flashcards/:deck_id', async (req, res) => {
    const answer: DeckResponse = { success: true, ...(await flashcards.get(principalOf(req), req.params.deck_id)), timestamp: nowIso() };
    res.json(answer);
  });

  r.delete('/interactives/flashcards/delete/:deck_id', async (req, res) => {
    const out = await flashcards.delete(principalOf(req), req.params.deck_id, chargeFor(req));
    const answer: DeckDeleteResponse = { success: true, message: 'Flashcard deck deleted', ...out, timestamp: nowIso() };
    res.json(answer);
  });

  return r;
}
