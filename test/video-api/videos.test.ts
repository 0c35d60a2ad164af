/**
 * Videos through the real HTTP API, rendered offline (eSpeak NG + ffmpeg): a 4-section journal
 * becomes a valid MP4 whose duration matches its narration, progress rises while it renders,
 * transcript and sources come from the journal, files are served to the owner only, a failure
 * ends as `failed` with its credit refunded, webhooks are signed, and input is validated.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, startTestServer, type Client, type TestServer } from '../helpers/server.ts';
import { until } from '../practice-api/helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { CREATE, createVideo, FOUR_SECTIONS, probeMp4, STATUS, topLevelBoxes, waitForVideo } from './helpers.ts';

let server: TestServer;
let client: Client;
let rx: Receiver;

beforeAll(async () => {
  server = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '20', JOB_POLL_MS: '50' } });
  client = await server.newClient();
  rx = await startReceiver();
});
afterAll(async () => {
  await server.close();
  await rx.close();
});

const balance = (c: Client): Promise<number> => server.svc.ctx.billing.credits.balance(c.orgId);

/** Receiver-side Standard Webhooks verification, written from the text (not our signing code). */
function verified(secret: string, m: { headers: any; body: string }): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${m.headers['webhook-id']}.${m.headers['webhook-timestamp']}.${m.body}`).digest('base64');
  return String(m.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

describe('a video from a 4-section journal', () => {
  let journalId: string;
  let videoId: string;
  let final: any;
  let model: any;
  const seen: number[] = [];
  let balanceBefore: number;

  it('completes offline with rising progress', async () => {
    journalId = await client.importMarkdown(FOUR_SECTIONS, 'Cell biology');
    model = await client.model(journalId);
    balanceBefore = await balance(client);
    const r = await client.post(CREATE, { journal_id: journalId, webhook_url: `${rx.url}/hooks/video` });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, status: 'pending' });
    videoId = r.body.video_id;
    expect(videoId).toMatch(/^[0-9a-f-]{36}$/);
    // The price is held while it renders.
    expect(balanceBefore - (await balance(client))).toBe(100_000);

    final = await waitForVideo(client, videoId, { seen });
    expect(final.status, final.message).toBe('completed');
    expect(final).toMatchObject({ success: true, video_id: videoId, completion_percentage: 100 });
    // Progress rose through the render: several distinct values, each above the one before.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
    expect(seen.at(-1)!).toBeLessThan(100);
    expect(seen.some((p) => p > 0 && p < 55)).toBe(true); // narration / slides
    expect(seen.some((p) => p >= 55)).toBe(true); // segment encoding
  }, 120_000);

  it('is a valid H.264/AAC MP4 whose duration matches the narration within 10 %', async () => {
    const res = final.response;
    expect(Object.keys(res)).toEqual(expect.arrayContaining(['success', 'error', 's3_url', 'b64_video', 'title', 'transcript', 'sources', 'cost', 'model', 'timestamp']));
    expect(res).toMatchObject({ success: true, error: '', title: 'Cell biology', cost: 0.1 });
    expect(res.model).toMatch(/espeak-ng/);
    expect(res.model).toMatch(/ffmpeg/);
    expect(Number.isNaN(Date.parse(res.timestamp))).toBe(false);
    const mp4 = Buffer.from(res.b64_video, 'base64');
    expect(mp4.length).toBe(res.size_bytes);
    const boxes = topLevelBoxes(mp4);
    expect(boxes[0]).toBe('ftyp');
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const info = await probeMp4(mp4);
    expect([info.videoCodec, info.audioCodec]).toEqual(['h264', 'aac']);
    const duration = info.durationSeconds;
    expect(res.narration_seconds).toBeGreaterThan(3);
    expect(Math.abs(duration - res.narration_seconds) / res.narration_seconds).toBeLessThan(0.1);
    // Independent of the engine's own measure: ~165 words per minute of the transcript.
    const words = res.transcript.split(/\s+/).filter(Boolean).length;
    expect(duration).toBeGreaterThan((words / (165 / 60)) * 0.6);
    expect(duration).toBeLessThan((words / (165 / 60)) * 1.6);
  });

  it('takes transcript and sources from the journal', () => {
    const res = final.response;
    for (const s of ['A membrane is a thin layer around the cell.', 'The nucleus stores the genes.', 'They release energy.', 'Ribosomes build proteins.']) {
      expect(res.transcript).toContain(s);
    }
    expect(res.transcript.split('\n\n')).toHaveLength(4);
    expect(res.chapters.map((c: any) => c.heading)).toEqual(['Membranes', 'Nucleus', 'Mitochondria', 'Ribosomes']);
    const top = blocks(model);
    const ids = new Set<string>();
    const collect = (n: any) => {
      if (n.attrs?.id) ids.add(n.attrs.id);
      for (const c of n.content ?? []) collect(c);
    };
    collect(model.model);
    expect(res.sources.length).toBeGreaterThanOrEqual(8);
    for (const s of res.sources) {
      const m = new RegExp(`^${server.url}/journals/${journalId}#block-(.+)$`).exec(s.url);
      expect(m, s.url).not.toBeNull();
      expect(ids.has(decodeURIComponent(m![1]!))).toBe(true);
      expect(s.content.length).toBeGreaterThan(0);
    }
    // A source's content is the text of the block it points at.
    const nucleus = top.find((b) => b.text === 'The nucleus stores the genes.')!;
    expect(res.sources).toContainEqual({ url: `${server.url}/journals/${journalId}#block-${nucleus.id}`, content: 'The nucleus stores the genes.' });
    const heading = top.find((b) => b.text === 'Ribosomes')!;
    expect(res.sources.some((s: any) => s.url.endsWith(`#block-${heading.id}`) && s.content === 'Ribosomes')).toBe(true);
  });

  it('settles the reserved price', async () => {
    const row = await server.svc.ctx.engine.get('SELECT status, cost_micros FROM credit_reservations WHERE purpose = ?', [`video ${videoId}`]);
    expect(row).toEqual({ status: 'settled', cost_micros: 100_000 });
    // The video's price plus $0.00001 per status poll.
    const spent = balanceBefore - (await balance(client));
    expect(spent).toBeGreaterThanOrEqual(100_000);
    expect((spent - 100_000) % 10).toBe(0);
    expect(spent - 100_000).toBeLessThan(100_000);
  });

  it('serves the MP4 and captions to the owner only', async () => {
    const res = final.response;
    expect(res.s3_url).toBe(`${server.url}/v1/video/download/${videoId}`);
    const owner = await fetch(res.s3_url, { headers: { authorization: `Bearer ${client.key}` } });
    expect(owner.status).toBe(200);
    expect(owner.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await owner.arrayBuffer());
    expect(bytes.equals(Buffer.from(res.b64_video, 'base64'))).toBe(true);
    // Range
    const part = await fetch(res.s3_url, { headers: { authorization: `Bearer ${client.key}`, range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);
    // No key: 401; another key (even of the same organization): 404, like an unknown id.
    expect((await fetch(res.s3_url)).status).toBe(401);
    const other = await server.newClient();
    expect((await other.get(`/v1/video/download/${videoId}`)).status).toBe(404);
    expect((await (await server.sameOrgClient(client)).get(`/v1/video/download/${videoId}`)).status).toBe(404);
    expect((await other.get(`${STATUS}/${videoId}`)).status).toBe(404);
    expect((await other.get(`/v1/video/captions/${videoId}`)).status).toBe(404);
    expect((await client.get('/v1/video/download/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const vtt = await fetch(res.captions_url, { headers: { authorization: `Bearer ${client.key}` } });
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    const text = await vtt.text();
    expect(text.startsWith('WEBVTT')).toBe(true);
    expect(text).toContain('The nucleus stores the genes.');
  });

  it('announces the finished video with a signed webhook', async () => {
    const secret = await server.svc.ctx.webhooks.secrets.secret(client.orgId);
    const m = await until(() => rx.received.find((x) => JSON.parse(x.body).data?.video_id === videoId), 'the video webhook');
    expect(m.path).toBe('/hooks/video');
    expect(m.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(verified(secret, m)).toBe(true);
    expect(verified(secret, { ...m, body: m.body.replace('completed', 'failed') })).toBe(false);
    expect(JSON.parse(m.body)).toMatchObject({ type: 'video.completed', data: { video_id: videoId, status: 'completed' } });
  });
});

describe('failures', () => {
  it('an empty journal ends as failed with a clear error, refunded and announced', async () => {
    const j = await client.put('/v1/journals/editor/create', { title: 'Nothing yet' });
    expect(j.status).toBe(200);
    const before = await balance(client);
    const id = await createVideo(client, { journal_id: j.body.journal_id, webhook_url: `${rx.url}/hooks/empty` });
    const s = await waitForVideo(client, id);
    expect(s).toMatchObject({ success: false, status: 'failed', video_id: id });
    expect(s.error).toMatch(/empty/);
    expect(s.message).toMatch(/refunded/);
    expect(s.response).toBeUndefined();
    const row = await server.svc.ctx.engine.get('SELECT status FROM credit_reservations WHERE purpose = ?', [`video ${id}`]);
    expect(row).toEqual({ status: 'refunded' });
    expect(before - (await balance(client))).toBeLessThan(100_000); // status polls only
    const m = await until(() => rx.received.find((x) => JSON.parse(x.body).data?.video_id === id), 'the failure webhook');
    expect(JSON.parse(m.body)).toMatchObject({ type: 'video.failed', data: { video_id: id, status: 'failed' } });
    expect((await client.get(`/v1/video/download/${id}`)).status).toBe(409);
  }, 30_000);
});

describe('validation', () => {
  it('answers 422 in FastAPI shape', async () => {
    const jid = await client.importMarkdown('# A\n\nSome text here.');
    const cases: [unknown, (string | number)[]][] = [
      [{}, ['body']],
      [{ journal_id: jid, text: 'Hello there.' }, ['body']],
      [{ text: '   ' }, ['body', 'text']],
      [{ text: 'x'.repeat(100_001) }, ['body', 'text']],
      [{ text: '```\ncode only\n```' }, ['body', 'text']],
      [{ text: 'Hello.', max_duration_seconds: 601 }, ['body', 'max_duration_seconds']],
      [{ text: 'Hello.', max_duration_seconds: 0 }, ['body', 'max_duration_seconds']],
      [{ text: 'Hello.', voice: 'not a voice!' }, ['body', 'voice']],
      [{ text: 'Hello.', title: '' }, ['body', 'title']],
      [{ text: 'Hello.', webhook_url: 'not a url' }, ['body', 'webhook_url']],
      [{ text: 42 }, ['body', 'text']],
    ];
    const before = await balance(client);
    for (const [body, loc] of cases) {
      const r = await client.post(CREATE, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
      expect(typeof r.body.detail[0].msg).toBe('string');
      expect(typeof r.body.detail[0].type).toBe('string');
    }
    const bad = await client.post(CREATE, '{nope');
    expect(bad.status).toBe(422);
    expect(await balance(client)).toBe(before);
  });

  it('404 for an unknown or foreign journal and an unknown video', async () => {
    const other = await server.newClient();
    const theirs = await other.importMarkdown('# Theirs\n\nPrivate notes.');
    expect((await client.post(CREATE, { journal_id: theirs })).status).toBe(404);
    expect((await client.post(CREATE, { journal_id: 'no-such-journal' })).status).toBe(404);
    const r = await client.get(`${STATUS}/no-such-video`);
    expect(r.status).toBe(404);
    expect(typeof r.body.error).toBe('string');
  });

  it('applies the Developer limit of 3 creates per minute', async () => {
    const dev = await server.newClient('developer');
    // Refused before any work (422): no slot used. A missing journal is looked up: counted.
    for (let i = 0; i < 3; i++) expect((await dev.post(CREATE, {})).status).toBe(422);
    for (let i = 0; i < 3; i++) expect((await dev.post(CREATE, { journal_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const r = await dev.post(CREATE, { text: 'Hello.' });
    expect(r.status).toBe(429);
    expect(r.body.limit_type).toBe('minute');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('402 when the balance cannot cover the price, nothing created', async () => {
    const poor = await server.newClient();
    await server.svc.ctx.billing.credits.set(poor.orgId, 50_000);
    const r = await poor.post(CREATE, { text: 'Hello there, this is a short video.' });
    expect(r.status).toBe(402);
    const n = await server.svc.ctx.engine.get<{ n: number }>('SELECT COUNT(*) AS n FROM videos WHERE org_id = ?', [poor.orgId]);
    expect(n!.n).toBe(0);
  });
});

describe('a video from text', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ env: { VIDEO_B64_MAX_BYTES: '1024', JOB_POLL_MS: '50' } });
  });
  afterAll(() => small.close());

  it('names its text blocks as sources and omits b64_video above the size limit', async () => {
    const c = await small.newClient();
    const id = await createVideo(c, { text: 'Osmosis\n\nOsmosis is the movement of water across a membrane.', title: 'Osmosis', max_duration_seconds: 30 });
    const s = await waitForVideo(c, id);
    expect(s.status, s.message).toBe('completed');
    expect(s.response.title).toBe('Osmosis');
    expect(s.response.b64_video).toBe('');
    expect(s.message).toMatch(/download it from s3_url/);
    expect(s.response.sources).toContainEqual({ url: `${small.url}/v1/video/status/${id}#text-2`, content: 'Osmosis is the movement of water across a membrane.' });
    const dl = await c.request('GET', `/v1/video/download/${id}`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-length')).toBe(String(s.response.size_bytes));
  }, 60_000);
});
