/**
 * Routes of flashcard decks (endpoints.ts): POST /interactives/flashcards/create makes and stores
 * a deck (synchronously, paid per request, Idempotency-Key honoured); a deck is then read, listed
 * and deleted by id.
 */
import { Router } from 'express';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { route } from '../http/endpoint.ts';
import { idempotencyOf } from '../http/idempotency.ts';
import { listRoute } from '../http/paging.ts';
import { exactlyOneSource } from '../sources/request.ts';
import { nowIso } from '../time.ts';
import { flashcardEndpoints as e } from './endpoints.ts';
import type { DeckDeleteResponse, DeckResponse } from './schema.ts';
import type { FlashcardService } from './service.ts';

export function flashcardRoutes(flashcards: FlashcardService): Router {
  const r = Router();

  route(r, e.create, async (call, res) => {
    const b = call.body;
    exactlyOneSource(b);
    // Paid once the cards are made (402 when the balance is short: nothing stored or returned).
    const out = await flashcards.create(principalOf(call.req), b, idempotencyOf(call.req, call.raw), chargeFor(call.req));
    res.status(out.status).json(out.body);
  });

  // Before the deck's own route, which would take "list" for an id.
  listRoute(r, e.list, 'decks', (n) => `${n} flashcard decks`, (req, token, size) => flashcards.list(principalOf(req), token, size));

  route(r, e.get, async (call, res) => {
    const answer: DeckResponse = { success: true, ...(await flashcards.get(principalOf(call.req), call.param('deck_id'))), timestamp: nowIso() };
    res.json(answer);
  });

  route(r, e.delete, async (call, res) => {
    const out = await flashcards.delete(principalOf(call.req), call.param('deck_id'), chargeFor(call.req));
    const answer: DeckDeleteResponse = { success: true, message: 'Flashcard deck deleted', ...out, timestamp: nowIso() };
    res.json(answer);
  });

  return r;
}
