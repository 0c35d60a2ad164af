/** Helpers of the video API suites: create a video, poll its status (recording progress), MP4 checks. */
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeMedia } from '../../server/video/engine/index.ts';
import type { Client } from '../helpers/server.ts';

export const CREATE = '/v1/video/create';
export const STATUS = '/v1/video/status';

/** A 4-section journal with one or two short sentences per section (a few seconds of narration). */
export const FOUR_SECTIONS = [
  '# The cell',
  '',
  '## Membranes',
  '',
  'A membrane is a thin layer around the cell.',
  '',
  '## Nucleus',
  '',
  'The nucleus stores the genes.',
  '',
  '## Mitochondria',
  '',
  '- They release energy.',
  '',
  '## Ribosomes',
  '',
  'Ribosomes build proteins.',
  '',
].join('\n');

export async function createVideo(client: Client, body: Record<string, unknown>): Promise<string> {
  const r = await client.post(CREATE, body);
  if (r.status !== 200) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.video_id;
}

/**
 * Polls until the video is no longer pending (or `done` holds). Bounded; not a timing assertion.
 * Every distinct completion_percentage seen while pending is appended to `seen`.
 */
export async function waitForVideo(client: Client, id: string, opts: { seen?: number[]; done?: (s: any) => boolean; ms?: number } = {}): Promise<any> {
  const done = opts.done ?? ((s: any) => s.status !== 'pending');
  const until = Date.now() + (opts.ms ?? 90_000);
  for (;;) {
    const r = await client.get(`${STATUS}/${id}`);
    if (r.status !== 200) throw new Error(`status failed: ${r.status} ${JSON.stringify(r.body)}`);
    if (opts.seen && r.body.status === 'pending' && r.body.completion_percentage !== opts.seen.at(-1)) opts.seen.push(r.body.completion_percentage);
    if (done(r.body)) return r.body;
    if (Date.now() > until) throw new Error(`video ${id} still ${r.body.status} (${r.body.completion_percentage}%)`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

/** Top-level MP4 box types in file order. */
export function topLevelBoxes(buf: Buffer): string[] {
  const out: string[] = [];
  for (let off = 0; off + 8 <= buf.length; ) {
    let len = buf.readUInt32BE(off);
    if (len === 1) len = Number(buf.readBigUInt64BE(off + 8));
    if (len < 8) break;
    out.push(buf.toString('latin1', off + 4, off + 8));
    off += len;
  }
  return out;
}

export async function writeTemp(buf: Buffer, name: string): Promise<string> {
  const p = join(tmpdir(), `${Date.now()}-${Math.random().toString(36).slice(2, 8)}-${name}`);
  await writeFile(p, buf);
  return p;
}

/** What ffmpeg reads from an MP4 given as bytes (codecs, duration), through a temporary file. */
export async function probeMp4(mp4: Buffer): ReturnType<typeof probeMedia> {
  const file = await writeTemp(mp4, 'video.mp4');
  try {
    return await probeMedia(file);
  } finally {
    await rm(file, { force: true });
  }
}
