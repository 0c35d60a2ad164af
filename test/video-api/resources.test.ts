/**
 * Videos as resources through the real HTTP API: listed newest first with page_size and
 * page_token, deleted with their files under DATA_DIR/videos (a queued or running render is
 * cancelled and its reservation refunded), another key's and another organization's videos are
 * 404, and Idempotency-Key on create (a replay makes no second video and reserves nothing twice).
 * One worker, so that videos created here wait in the queue instead of rendering side by side.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../helpers/server.ts';
import { CREATE, createVideo, FOUR_SECTIONS, STATUS, waitForVideo } from './helpers.ts';

const LIST = '/v1/video/list';
const DELETE = '/v1/video/delete';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { JOB_POLL_MS: '50', JOB_CONCURRENCY: '1' } });
});
afterAll(() => server.close());

const balance = (c: Client): Promise<number> => server.svc.ctx.billing.credits.balance(c.orgId);
const videoDir = (id: string) => join(server.dataDir, 'videos', id);
const SHORT = { text: 'Osmosis is the movement of water across a membrane.', max_duration_seconds: 5 };

describe('GET /v1/video/list and deleting queued videos', () => {
  it('pages newest first; deleting a queued video cancels its job and refunds it in full', async () => {
    const client = await server.newClient();
    const other = await server.newClient();
    // The worker is held by a long render, so the three listed videos stay queued.
    const busy = await createVideo(other, { text: FOUR_SECTIONS });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await createVideo(client, { ...SHORT, title: `Video ${i}` }));

    const p1 = await client.get(`${LIST}?page_size=2`);
    expect(p1.status).toBe(200);
    expect(p1.body.videos.map((v: any) => v.video_id)).toEqual([ids[2], ids[1]]);
    expect(p1.body.videos[0]).toMatchObject({ title: 'Video 2', source: 'text', journal_id: null, status: 'pending', cost: null });
    const p2 = await client.get(`${LIST}?page_size=2&page_token=${p1.body.next_page_token}`);
    expect(p2.body.videos.map((v: any) => v.video_id)).toEqual([ids[0]]);
    expect(p2.body.next_page_token).toBeUndefined();
    expect((await other.get(LIST)).body.videos.map((v: any) => v.video_id)).toEqual([busy]);

    for (const id of ids) {
      const jobId = (await server.svc.ctx.videos.store.get(id))!.job_id!;
      const before = await balance(client);
      const r = await client.del(`${DELETE}/${id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ success: true, video_id: id, status: 'pending', cancelled: true, cost: 0, refunded: 0.1 });
      expect(await balance(client)).toBe(before - 50 + 100_000);
      expect(await server.svc.ctx.jobs.store.get(jobId)).toMatchObject({ state: 'failed' });
    }
    expect((await client.get(LIST)).body.videos).toEqual([]);
    await other.del(`${DELETE}/${busy}`);
  }, 60_000);
});

describe('DELETE /v1/video/delete/{video_id}', () => {
  it('stops a render in progress, refunds it and removes its files', async () => {
    const client = await server.newClient();
    const id = await createVideo(client, { text: FOUR_SECTIONS });
    const jobId = (await server.svc.ctx.videos.store.get(id))!.job_id!;
    // Running, with files being written.
    await waitForVideo(client, id, { done: (s) => s.status !== 'pending' || s.completion_percentage > 0 });
    expect(existsSync(videoDir(id))).toBe(true);
    const before = await balance(client);
    const r = await client.del(`${DELETE}/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ video_id: id, status: 'pending', cancelled: true, cost: 0, refunded: 0.1 });
    expect(await balance(client)).toBe(before - 50 + 100_000);
    expect(existsSync(videoDir(id))).toBe(false);
    expect(server.svc.ctx.jobs.running).toBe(0);
    expect(await server.svc.ctx.jobs.store.get(jobId)).toMatchObject({ state: 'failed', lease_owner: null });
    expect((await client.get(`${STATUS}/${id}`)).status).toBe(404);
    // Nothing comes back once the stopped render has unwound.
    await new Promise((res) => setTimeout(res, 300));
    expect(existsSync(videoDir(id))).toBe(false);
  }, 60_000);

  it('deletes a finished video and its files; no refund; 404 afterwards', async () => {
    const client = await server.newClient();
    const id = await createVideo(client, SHORT);
    const done = await waitForVideo(client, id);
    expect(done.status, done.message).toBe('completed');
    expect(await readdir(videoDir(id))).toEqual(expect.arrayContaining(['video.mp4', 'captions.vtt']));
    const listed = (await client.get(LIST)).body.videos[0];
    expect(listed).toMatchObject({ video_id: id, status: 'completed', completion_percentage: 100, cost: 0.1 });

    const before = await balance(client);
    const r = await client.del(`${DELETE}/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ video_id: id, status: 'completed', cancelled: false, cost: 0.1, refunded: 0 });
    expect(await balance(client)).toBe(before - 50);
    expect(existsSync(videoDir(id))).toBe(false);
    expect((await client.del(`${DELETE}/${id}`)).status).toBe(404);
    expect(await balance(client)).toBe(before - 50);
    expect((await client.get(`${STATUS}/${id}`)).status).toBe(404);
    expect((await client.get(`/v1/video/download/${id}`)).status).toBe(404);
  }, 90_000);

  it('is a 404 for another key and another organization, and leaves the video and its files', async () => {
    const client = await server.newClient();
    const id = await createVideo(client, SHORT);
    const done = await waitForVideo(client, id);
    expect(done.status).toBe('completed');
    for (const c of [await server.sameOrgClient(client), await server.newClient()]) {
      const r = await c.del(`${DELETE}/${id}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Video not found' });
      expect((await c.get(LIST)).body.videos).toEqual([]);
    }
    expect(existsSync(join(videoDir(id), 'video.mp4'))).toBe(true);
    expect((await client.get(`${STATUS}/${id}`)).body.status).toBe('completed');
  }, 90_000);
});

describe('Idempotency-Key on POST /v1/video/create', () => {
  it('replays the first answer without a second video or reservation; another body is 422', async () => {
    const client = await server.newClient();
    const headers = { 'Idempotency-Key': 'video-1' };
    const start = await balance(client);
    const first = await client.post(CREATE, SHORT, headers);
    expect(first.status).toBe(200);
    const second = await client.post(CREATE, SHORT, headers);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await balance(client)).toBe(start - 100_000);

    const other = await client.post(CREATE, { ...SHORT, title: 'Another' }, headers);
    expect(other.status).toBe(422);
    expect(other.body.detail[0].loc).toEqual(['header', 'Idempotency-Key']);
    expect(await balance(client)).toBe(start - 100_000);
    expect((await client.get(LIST)).body.videos.map((v: any) => v.video_id)).toEqual([first.body.video_id]);
    await client.del(`${DELETE}/${first.body.video_id}`);
  });
});
