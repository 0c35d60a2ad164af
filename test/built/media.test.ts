/**
 * Videos and flashcards on the built server (`node dist/server/main.mjs`): a video rendered with
 * the speech worker copied beside the bundle, eSpeak NG, the slide renderer and ffmpeg from
 * node_modules, downloaded as an MP4 that plays; flashcards from text and from a journal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killChildServers, prepareDataDir, startChildServer } from '../helpers/child-server.ts';
import { blocks, Client } from '../helpers/server.ts';
import { createVideo, probeMp4, topLevelBoxes, waitForVideo } from '../video-api/helpers.ts';

let c: Client;

beforeAll(async () => {
  const { dataDir, key, orgId } = await prepareDataDir();
  const server = await startChildServer(dataDir);
  c = new Client(server.url, key, orgId);
});
afterAll(() => killChildServers());

describe('video', () => {
  it('renders a journal to an H.264/AAC MP4 whose length is its narration, downloaded by its owner', async () => {
    const journalId = await c.importMarkdown('# The cell\n\n## Membranes\n\nA membrane is a thin layer around the cell.\n\n## Nucleus\n\nThe nucleus stores the genes.\n', 'Cells');
    const id = await createVideo(c, { journal_id: journalId });
    const done = await waitForVideo(c, id, { ms: 110_000 });
    expect(done.status, done.message).toBe('completed');
    const res = done.response;
    expect(res).toMatchObject({ success: true, title: 'Cells' });
    expect(res.transcript).toContain('A membrane is a thin layer around the cell.');
    expect(res.transcript).toContain('The nucleus stores the genes.');
    expect(res.chapters.map((ch: any) => ch.heading)).toEqual(['Membranes', 'Nucleus']);

    const download = await fetch(res.s3_url, { headers: { authorization: `Bearer ${c.key}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    const mp4 = Buffer.from(await download.arrayBuffer());
    expect(mp4.length).toBe(res.size_bytes);
    expect(topLevelBoxes(mp4)[0]).toBe('ftyp');
    const info = await probeMp4(mp4);
    expect([info.videoCodec, info.audioCodec]).toEqual(['h264', 'aac']);
    expect(res.narration_seconds).toBeGreaterThan(2);
    expect(Math.abs(info.durationSeconds - res.narration_seconds) / res.narration_seconds).toBeLessThan(0.1);
  }, 120_000);
});

const CREATE = '/v1/interactives/flashcards/create';

describe('flashcards', () => {
  it('from text: one card per definition, in order', async () => {
    const text = 'Osmosis: the movement of water across a membrane.\nDiffusion: the spread of particles.\nCatalyst: a substance that speeds up a reaction.';
    const r = await c.post(CREATE, { text });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.flashcards.map((card: any) => [card.front, card.back])).toEqual([
      ['Osmosis', expect.stringMatching(/^The movement of water across a membrane/)],
      ['Diffusion', expect.stringMatching(/^The spread of particles/)],
      ['Catalyst', expect.stringMatching(/^A substance that speeds up a reaction/)],
    ]);
    const deck = await c.get(`/v1/interactives/flashcards/${r.body.deck_id}`);
    expect(deck.status).toBe(200);
    expect(deck.body.flashcards).toEqual(r.body.flashcards);
  });

  it('from a journal: each card points at the block that holds its definition', async () => {
    const jid = await c.importMarkdown(
      '# Cell biology\n\n**Mitochondria** are the organelles that release energy from food.\n\n- Osmosis: the movement of water across a semi-permeable membrane.\n\nA ribosome is a molecular machine that builds proteins.\n',
      'Glossary',
    );
    const model = await c.model(jid);
    const textById = new Map<string, string>();
    const walk = (n: any): string => {
      const text = n.text ?? (n.content ?? []).map(walk).join('');
      if (n.attrs?.id) textById.set(n.attrs.id, text);
      return text;
    };
    walk(model.model);
    expect(blocks(model).length).toBeGreaterThan(2);
    const r = await c.post(CREATE, { journal_id: jid });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const byFront = new Map<string, any>(r.body.flashcards.map((card: any) => [card.front, card]));
    expect(byFront.get('Mitochondria')?.back).toMatch(/organelles that release energy from food/);
    expect(byFront.get('Osmosis')?.back).toMatch(/movement of water across a semi-permeable membrane/);
    expect(byFront.get('Ribosome')?.back).toMatch(/molecular machine that builds proteins/);
    for (const front of ['Mitochondria', 'Osmosis', 'Ribosome']) {
      expect(textById.get(byFront.get(front).source_block_id)?.toLowerCase(), front).toContain(front.toLowerCase());
    }
  });
});
