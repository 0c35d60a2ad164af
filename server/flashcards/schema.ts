/**
 * zod schemas of the flashcard endpoints' answers that the OpenAPI document publishes: create
 * (also what an Idempotency-Key replay returns), get, list and delete of stored decks.
 */
import * as z from 'zod';

export const flashcardSchema = z.object({
  front: z.string(),
  back: z.string(),
  /** The journal block (or `text-N` block of the submitted text) the card was taken from. */
  source_block_id: z.string().optional(),
});

export const deckCreateResponseSchema = z.object({
  success: z.literal(true),
  deck_id: z.string(),
  flashcards: z.array(flashcardSchema),
  cost: z.number(),
  engine: z.string(),
  journal_id: z.string().optional(),
  timestamp: z.string(),
});

export const deckResponseSchema = z.object({
  success: z.literal(true),
  deck_id: z.string(),
  flashcards: z.array(flashcardSchema),
  source: z.enum(['journal', 'text']),
  journal_id: z.string().nullable(),
  /** `count` of the request; the deck may hold fewer cards. */
  requested_count: z.number().int(),
  cost: z.number(),
  engine: z.string(),
  created_at: z.string(),
  timestamp: z.string(),
});

/** One deck of GET /v1/interactives/flashcards/list (without its cards). */
export const deckListItemSchema = z.object({
  deck_id: z.string(),
  source: z.enum(['journal', 'text']),
  journal_id: z.string().nullable(),
  card_count: z.number().int(),
  engine: z.string(),
  cost: z.number(),
  created_at: z.string(),
});

export const deckListResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  decks: z.array(deckListItemSchema),
  next_page_token: z.number().int().optional(),
});

export const deckDeleteResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  deck_id: z.string(),
  timestamp: z.string(),
});

export type DeckCreateResponse = z.infer<typeof deckCreateResponseSchema>;
export type DeckResponse = z.infer<typeof deckResponseSchema>;
export type DeckListItem = z.infer<typeof deckListItemSchema>;
export type DeckListResponse = z.infer<typeof deckListResponseSchema>;
export type DeckDeleteResponse = z.infer<typeof deckDeleteResponseSchema>;
