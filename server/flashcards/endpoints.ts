/** The flashcard endpoints (a deck made, read, listed, deleted), each declared once; routes.ts serves them. */
import * as z from 'zod';
import { meteredEndpoints } from '../billing/endpoints.ts';
import { perTier } from '../billing/limits.ts';
import { read } from '../billing/prices.ts';
import { READ_ERRORS, WRITE_ERRORS } from '../http/endpoint.ts';
import { pagedList } from '../http/paging.ts';
import { idText } from '../http/text.ts';
import { EXACTLY_ONE_SOURCE, sourceText } from '../sources/request.ts';
import { FLASHCARD_COUNT_DEFAULT, FLASHCARD_COUNT_MAX } from './extract.ts';
import { deckCreateResponseSchema, deckDeleteResponseSchema, deckListResponseSchema, deckResponseSchema } from './schema.ts';

/** Longest `text` accepted (characters). */
export const MAX_FLASHCARD_TEXT_CHARS = 100_000;

const DECK = { deck_id: 'the deck id' };

export const flashcardEndpoints = meteredEndpoints('Flashcards', {
  create: {
    method: 'post',
    path: '/v1/interactives/flashcards/create',
    operationId: 'createDeck',
    summary: 'A stored deck of cards from a journal or text',
    body: z.object({
      journal_id: idText(200, 'journal_id').optional(),
      text: sourceText(MAX_FLASHCARD_TEXT_CHARS).optional(),
      count: z.number().int().min(1).max(FLASHCARD_COUNT_MAX).default(FLASHCARD_COUNT_DEFAULT),
    }).meta(EXACTLY_ONE_SOURCE),
    example: { journal_id: '3f0b2c1e-…', count: 10 },
    idempotent: true,
    success: { status: 200, description: 'the deck', schema: deckCreateResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 5_000, billing: 'request' },
    limits: { minute: perTier(5, 50, 500), day: perTier(100, 2_000, 20_000) },
  },
  list: {
    ...pagedList({ path: '/v1/interactives/flashcards/list', operationId: 'listDecks', summary: "The key's decks, paged", schema: deckListResponseSchema }),
    price: read(10),
  },
  get: {
    method: 'get',
    path: '/v1/interactives/flashcards/{deck_id}',
    operationId: 'getDeck',
    summary: 'One deck',
    params: DECK,
    success: { status: 200, description: 'the deck', schema: deckResponseSchema },
    errors: READ_ERRORS,
    price: read(10),
  },
  delete: {
    method: 'delete',
    path: '/v1/interactives/flashcards/delete/{deck_id}',
    operationId: 'deleteDeck',
    summary: 'Delete a deck',
    params: DECK,
    success: { status: 200, description: 'deleted', schema: deckDeleteResponseSchema },
    errors: READ_ERRORS,
    price: { base: 50, billing: 'request' },
  },
});
