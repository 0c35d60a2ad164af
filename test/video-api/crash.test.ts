/**
 * Durable renders: the server runs as a child process (`node --import tsx server/main.ts`, not the
 * tsx wrapper, whose SIGKILL would leave the real server running) and is killed with SIGKILL while
 * a video renders. After a restart on the same DATA_DIR the render resumes from its workDir and
 * completes; with no attempts left it fails cleanly with its credit refunded. Never pending forever.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeDurationSeconds } from '../../server/video/engine/index.ts';
import { killChildServers, prepareDataDir as prepareChildDataDir, startChildServer as startChild, withStore } from '../helpers/child-server.ts';
import { Client } from '../helpers/server.ts';
import { until } from '../practice-api/helpers.ts';
import { createVideo, topLevelBoxes, waitForVideo, writeTemp } from './helpers.ts';

const temps: string[] = [];

afterEach(async () => {
  killChildServers();
  for (const t of temps.splice(0)) await rm(t, { recursive: true, force: true });
});

async function prepareDataDir(): Promise<{ dataDir: string; key: string; orgId: string }> {
  const prepared = await prepareChildDataDir();
  temps.push(prepared.dataDir);
  return prepared;
}

/** About 20 seconds of narration over four slides: long enough to be killed mid-render. */
const TEXT = [
  '# Photosynthesis',
  'Plants capture light with chlorophyll in their leaves. The energy splits water and releases oxygen into the air around them.',
  '# Light reactions',
  'In the thylakoid membranes, light drives electrons along a chain of proteins. This pumps protons and makes ATP and NADPH for later steps.',
  '# Calvin cycle',
  'In the stroma, the enzyme rubisco fixes carbon dioxide into sugar. The cycle spends the ATP and NADPH made by the light reactions.',
  '# Why it matters',
  'Almost all food chains start with photosynthesis. It also keeps the oxygen in the atmosphere that animals breathe every day.',
].join('\n\n');

function jobOf(dataDir: string, videoId: string): Promise<{ state: string; attempts: number } | undefined> {
  return withStore(dataDir, (db) => db.get<{ state: string; attempts: number }>('SELECT j.state, j.attempts FROM jobs j JOIN videos v ON v.job_id = j.id WHERE v.id = ?', [videoId]));
}

async function heldReservations(dataDir: string): Promise<number> {
  return (await withStore(dataDir, (db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM credit_reservations WHERE status = 'held'")))!.n;
}

describe('video renders interrupted by kill -9', () => {
  it('resume after a restart and complete, keeping the pieces made before the crash', async () => {
    const { dataDir, key, orgId } = await prepareDataDir();
    const env = { JOB_LEASE_SECONDS: '1', JOB_POLL_MS: '50' };
    const first = await startChild(dataDir, env);
    let api = new Client(first.url, key, orgId);
    const id = await createVideo(api, { text: TEXT, title: 'Photosynthesis' });
    // Killed while segments are being encoded: narration and slides are finished by then.
    const before = await waitForVideo(api, id, { done: (s) => s.status !== 'pending' || s.completion_percentage >= 56 });
    expect(before.status).toBe('pending');
    const parts = await readdir(path.join(dataDir, 'videos', id, '.parts'));
    expect(parts.filter((f) => /^narration-\d+\.wav$/.test(f))).toHaveLength(4);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startChild(dataDir, env);
    api = new Client(second.url, key, orgId);
    const seen: number[] = [];
    const s = await waitForVideo(api, id, { seen });
    expect(s.status, s.message).toBe('completed');
    // Progress never went backwards across the restart.
    for (const p of seen) expect(p).toBeGreaterThanOrEqual(before.completion_percentage);
    expect(await jobOf(dataDir, id)).toEqual({ state: 'done', attempts: 2 });
    const mp4 = Buffer.from(s.response.b64_video, 'base64');
    expect(topLevelBoxes(mp4)[0]).toBe('ftyp');
    const file = await writeTemp(mp4, 'resumed.mp4');
    temps.push(file);
    const d = await probeDurationSeconds(file);
    expect(Math.abs(d - s.response.narration_seconds) / s.response.narration_seconds).toBeLessThan(0.1);
    expect(s.response.transcript).toContain('rubisco fixes carbon dioxide into sugar');
    expect(await heldReservations(dataDir)).toBe(0);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('fail cleanly after a restart when no attempt is left, with the credit refunded', async () => {
    const { dataDir, key, orgId } = await prepareDataDir();
    const env = { JOB_LEASE_SECONDS: '1', JOB_POLL_MS: '50', JOB_MAX_ATTEMPTS: '1' };
    const first = await startChild(dataDir, env);
    let api = new Client(first.url, key, orgId);
    const id = await createVideo(api, { text: TEXT });
    await waitForVideo(api, id, { done: (s) => s.status !== 'pending' || s.completion_percentage >= 20 });
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startChild(dataDir, env);
    api = new Client(second.url, key, orgId);
    const s = await waitForVideo(api, id, { ms: 30_000 });
    expect(s).toMatchObject({ status: 'failed', success: false });
    expect(s.error).toMatch(/interrupted/);
    expect(await heldReservations(dataDir)).toBe(0);
    // Its files are removed.
    await until(() => readdir(path.join(dataDir, 'videos', id)).then(() => false, () => true), 'the workDir to be removed', 10_000);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
