/**
 * POST /v1/interactives/flashcards/create through the real server: cards from a journal with
 * definitions (term/definition pairs whose source_block_id is a real block of that journal), from
 * text, count validation, 404 for foreign journals, price and rate limit.
 */
import { describe, expect, it } from 'vitest';
import { type Client, serverSuite, type TestServer } from '../helpers/server.ts';

const CREATE = '/v1/interactives/flashcards/create';

let server: TestServer;
let client: Client;
serverSuite({}, (s, c) => {
  server = s;
  client = c;
});

const GLOSSARY = [
  '# Cell biology',
  '',
  '**Mitochondria** are the organelles that release energy from food.',
  '',
  '## Terms',
  '',
  '- Osmosis: the movement of water across a semi-permeable membrane.',
  '- Diffusion: the spread of particles from high to low concentration.',
  '',
  'A ribosome is a molecular machine that builds proteins.',
  '',
  'Cells divide often. This sentence defines nothing.',
].join('\n');

/** Every node id of a model, with the text under it. */
function blockTexts(model: any): Map<string, string> {
  const out = new Map<string, string>();
  const text = (n: any): string => n.text ?? (n.content ?? []).map(text).join('');
  const walk = (n: any) => {
    if (n.attrs?.id) out.set(n.attrs.id, text(n));
    for (const c of n.content ?? []) walk(c);
  };
  walk(model.model);
  return out;
}

describe('flashcards', () => {
  it('takes term/definition pairs from a journal, each pointing at its block', async () => {
    const jid = await client.importMarkdown(GLOSSARY, 'Glossary');
    const ids = blockTexts(await client.model(jid));
    const before = await server.svc.ctx.billing.credits.balance(client.orgId);
    const r = await client.post(CREATE, { journal_id: jid });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, cost: 0.005 });
    expect(await server.svc.ctx.billing.credits.balance(client.orgId)).toBe(before - 5_000);
    const cards = r.body.flashcards as { front: string; back: string; source_block_id?: string }[];
    const byFront = new Map(cards.map((c) => [c.front, c]));
    expect(byFront.get('Mitochondria')?.back).toMatch(/organelles that release energy from food/);
    expect(byFront.get('Osmosis')?.back).toMatch(/^The movement of water across a semi-permeable membrane/);
    expect(byFront.get('Diffusion')?.back).toMatch(/^The spread of particles from high to low concentration/);
    expect(byFront.get('Ribosome')?.back).toMatch(/molecular machine that builds proteins/);
    for (const c of cards) {
      expect(c.source_block_id, c.front).toBeDefined();
      const blockText = ids.get(c.source_block_id!);
      expect(blockText, `${c.front} -> ${c.source_block_id}`).toBeDefined();
      // The block the card points at holds its definition (a heading card's back is the sentence under it).
      const lead = c.back.toLowerCase().replace(/[.…]+$/, '').split(/\s+/).slice(0, 4).join(' ');
      expect(blockText!.toLowerCase(), c.front).toContain(lead);
    }
    // Term/definition cards point at the block that holds the term too.
    for (const front of ['Mitochondria', 'Osmosis', 'Diffusion', 'Ribosome']) {
      expect(ids.get(byFront.get(front)!.source_block_id!)!.toLowerCase()).toContain(front.toLowerCase());
    }
  });

  it('takes cards from text, honouring count', async () => {
    const text = 'Osmosis: the movement of water across a membrane.\nDiffusion: the spread of particles.\nCatalyst: a substance that speeds up a reaction.';
    const all = await client.post(CREATE, { text });
    expect(all.status).toBe(200);
    expect(all.body.flashcards.map((c: any) => c.front)).toEqual(['Osmosis', 'Diffusion', 'Catalyst']);
    expect(all.body.flashcards[0].source_block_id).toBe('text-1');
    const two = await client.post(CREATE, { text, count: 2 });
    expect(two.body.flashcards).toHaveLength(2);
    const none = await client.post(CREATE, { text: 'It rained all day and we stayed in.' });
    expect(none.status).toBe(200);
    expect(none.body.flashcards).toEqual([]);
  });

  it('validates count and the source (422), 404 for foreign journals', async () => {
    const jid = await client.importMarkdown('Osmosis: the movement of water.');
    for (const [body, loc] of [
      [{ text: 'a: b c d e', count: 0 }, ['body', 'count']],
      [{ text: 'a: b c d e', count: 51 }, ['body', 'count']],
      [{ text: 'a: b c d e', count: 2.5 }, ['body', 'count']],
      [{ text: 'a: b c d e', count: '3' }, ['body', 'count']],
      [{}, ['body']],
      [{ text: 'x', journal_id: jid }, ['body']],
      [{ text: '  ' }, ['body', 'text']],
      [{ text: 'x'.repeat(100_001) }, ['body', 'text']],
    ] as const) {
      const r = await client.post(CREATE, body);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    }
    const empty = await client.put('/v1/journals/editor/create', { title: 'Empty' });
    const e = await client.post(CREATE, { journal_id: empty.body.journal_id });
    expect(e.status).toBe(422);
    expect(e.body.detail[0]).toMatchObject({ loc: ['body', 'journal_id'] });
    expect(e.body.detail[0].msg).toMatch(/no text/);
    const other = await server.newClient();
    expect((await other.post(CREATE, { journal_id: jid })).status).toBe(404);
    expect((await client.post(CREATE, { journal_id: 'missing' })).status).toBe(404);
  });

  it('applies the Developer limit of 5 per minute', async () => {
    const dev = await server.newClient('developer');
    for (let i = 0; i < 5; i++) expect((await dev.post(CREATE, { text: 'Osmosis: the movement of water.' })).status).toBe(200);
    const r = await dev.post(CREATE, { text: 'Osmosis: the movement of water.' });
    expect(r.status).toBe(429);
    expect(r.body.limit_type).toBe('minute');
  });
});
