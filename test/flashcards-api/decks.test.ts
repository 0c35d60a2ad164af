/**
 * Flashcard decks through the real HTTP API: create answers a deck_id besides the cards; the deck
 * is read back, listed newest first (page_size, page_token) and deleted by the key that made it;
 * another key or organization gets 404; Idempotency-Key replays the first answer without a second
 * deck or charge, and the same key with another body is 422.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../helpers/server.ts';

const CREATE = '/v1/interactives/flashcards/create';
const LIST = '/v1/interactives/flashcards/list';
const DECK = '/v1/interactives/flashcards';
const DELETE = '/v1/interactives/flashcards/delete';

const TEXT = ['Osmosis: the movement of water across a semi-permeable membrane.', 'Diffusion: the spread of particles from high to low concentration.'].join('\n');

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const balance = (c: Client): Promise<number> => server.svc.ctx.billing.credits.balance(c.orgId);

async function createDeck(c: Client, body: Record<string, unknown>): Promise<any> {
  const r = await c.post(CREATE, body);
  if (r.status !== 200) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

describe('flashcard decks', () => {
  it('stores the deck made by create and reads it back by deck_id', async () => {
    const client = await server.newClient();
    const jid = await client.importMarkdown(`# Terms\n\n${TEXT.split('\n').map((l) => `- ${l}`).join('\n')}\n`, 'Terms');
    const made = await createDeck(client, { journal_id: jid, count: 5 });
    expect(made.deck_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.flashcards.map((c: any) => c.front)).toEqual(['Osmosis', 'Diffusion']);
    const r = await client.get(`${DECK}/${made.deck_id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      deck_id: made.deck_id,
      flashcards: made.flashcards,
      source: 'journal',
      journal_id: jid,
      requested_count: 5,
      cost: 0.005,
      engine: 'offline:extract',
    });
    expect(Number.isNaN(Date.parse(r.body.created_at))).toBe(false);
  });

  it('lists the key own decks newest first, paged', async () => {
    const client = await server.newClient();
    const other = await server.newClient();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createDeck(client, { text: TEXT, count: i + 1 })).deck_id);
    await createDeck(other, { text: TEXT });
    const p1 = await client.get(`${LIST}?page_size=2`);
    expect(p1.status).toBe(200);
    expect(p1.body.decks.map((d: any) => d.deck_id)).toEqual([ids[2], ids[1]]);
    expect(p1.body.decks[0]).toMatchObject({ source: 'text', journal_id: null, card_count: 2, engine: 'offline:extract', cost: 0.005 });
    expect(p1.body.decks[0].flashcards).toBeUndefined();
    const p2 = await client.get(`${LIST}?page_size=2&page_token=${p1.body.next_page_token}`);
    expect(p2.body.decks.map((d: any) => d.deck_id)).toEqual([ids[0]]);
    expect(p2.body.next_page_token).toBeUndefined();
    expect(p2.body.decks[0].card_count).toBe(1);
  });

  it('deletes a deck (a paid write); afterwards it is a 404 and gone from the list', async () => {
    const client = await server.newClient();
    const { deck_id } = await createDeck(client, { text: TEXT });
    const before = await balance(client);
    const r = await client.del(`${DELETE}/${deck_id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, deck_id });
    expect(await balance(client)).toBe(before - 50);
    expect((await client.del(`${DELETE}/${deck_id}`)).status).toBe(404);
    expect(await balance(client)).toBe(before - 50);
    expect((await client.get(`${DECK}/${deck_id}`)).status).toBe(404);
    expect((await client.get(LIST)).body.decks).toEqual([]);
  });

  it('is a 404 for another key and another organization, which change nothing', async () => {
    const client = await server.newClient();
    const { deck_id } = await createDeck(client, { text: TEXT });
    for (const c of [await server.sameOrgClient(client), await server.newClient()]) {
      const g = await c.get(`${DECK}/${deck_id}`);
      expect(g.status).toBe(404);
      expect(g.body).toEqual({ error: 'Flashcard deck not found' });
      expect((await c.del(`${DELETE}/${deck_id}`)).status).toBe(404);
      expect((await c.get(LIST)).body.decks).toEqual([]);
    }
    expect((await client.get(`${DECK}/${deck_id}`)).status).toBe(200);
  });

  it('402 stores no deck', async () => {
    const client = await server.newClient();
    await server.svc.ctx.billing.credits.set(client.orgId, 1_000);
    const r = await client.post(CREATE, { text: TEXT });
    expect(r.status).toBe(402);
    await server.svc.ctx.billing.credits.set(client.orgId, 1_000_000);
    expect((await client.get(LIST)).body.decks).toEqual([]);
  });
});

describe('Idempotency-Key on POST /v1/interactives/flashcards/create', () => {
  it('replays the first answer with no second deck or charge; another body is 422', async () => {
    const client = await server.newClient();
    const headers = { 'Idempotency-Key': 'deck-1' };
    const start = await balance(client);
    const first = await client.post(CREATE, { text: TEXT }, headers);
    expect(first.status).toBe(200);
    const second = await client.post(CREATE, { text: TEXT }, headers);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await balance(client)).toBe(start - 5_000);

    const other = await client.post(CREATE, { text: TEXT, count: 1 }, headers);
    expect(other.status).toBe(422);
    expect(other.body.detail[0].loc).toEqual(['header', 'Idempotency-Key']);
    expect(await balance(client)).toBe(start - 5_000);
    expect((await client.get(LIST)).body.decks.map((d: any) => d.deck_id)).toEqual([first.body.deck_id]);
  });

  it('refuses a malformed key with 422 before any work', async () => {
    const client = await server.newClient();
    const start = await balance(client);
    const r = await client.post(CREATE, { text: TEXT }, { 'Idempotency-Key': 'x'.repeat(256) });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['header', 'Idempotency-Key']);
    expect(await balance(client)).toBe(start);
  });
});
