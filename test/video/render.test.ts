import { mkdtemp, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOutline, OutlineError, type Outline, type PMJSON } from '../../server/video/outline.ts';
import { probeDurationSeconds, probeMedia, renderVideo, shutdownSpeech, type RenderResult } from '../../server/video/engine/index.ts';

const t = (text: string): PMJSON => ({ type: 'text', text });
const p = (id: string, text: string): PMJSON => ({ type: 'paragraph', attrs: { id }, content: [t(text)] });
const h = (id: string, text: string): PMJSON => ({ type: 'heading', attrs: { id, level: 2 }, content: [t(text)] });

/** A 4-section journal with a few seconds of narration per section. */
const journal: PMJSON = {
  type: 'doc',
  content: [
    h('h1', 'Membranes'), p('p1', 'A membrane is a thin layer around the cell.'),
    h('h2', 'Nucleus'), p('p2', 'The nucleus stores the genes.'),
    h('h3', 'Mitochondria'),
    { type: 'bullet_list', attrs: { id: 'l3' }, content: [{ type: 'list_item', attrs: { id: 'li3' }, content: [p('p3', 'They release energy.')] }] },
    h('h4', 'Ribosomes'), p('p4', 'Ribosomes build proteins.'),
  ],
};
const blockIds = new Set(['h1', 'p1', 'h2', 'p2', 'h3', 'l3', 'li3', 'p3', 'h4', 'p4']);

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'video-engine-'));
});
afterAll(async () => {
  await shutdownSpeech();
  await rm(root, { recursive: true, force: true });
});

/** Top-level MP4 boxes (type names in file order). */
async function topLevelBoxes(path: string): Promise<string[]> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const boxes: string[] = [];
    const head = Buffer.alloc(16);
    for (let off = 0; off + 8 <= size; ) {
      await fh.read(head, 0, 16, off);
      let len = head.readUInt32BE(0);
      if (len === 1) len = Number(head.readBigUInt64BE(8));
      if (len < 8) break;
      boxes.push(head.toString('latin1', 4, 8));
      off += len;
    }
    return boxes;
  } finally {
    await fh.close();
  }
}

function parseVtt(vtt: string): Array<{ start: number; end: number; text: string }> {
  const toSec = (s: string) => {
    const [hh, mm, rest] = s.split(':');
    return Number(hh) * 3600 + Number(mm) * 60 + Number(rest);
  };
  const blocks = vtt.trim().split(/\n\n+/);
  expect(blocks[0]).toBe('WEBVTT');
  return blocks.slice(1).map((b) => {
    const lines = b.split('\n');
    expect(lines[0]).toMatch(/^\d+$/);
    const m = /^(\d{2}:\d{2}:\d{2}\.\d{3}) --> (\d{2}:\d{2}:\d{2}\.\d{3})$/.exec(lines[1]!);
    expect(m, `bad cue timing: ${lines[1]}`).not.toBeNull();
    return { start: toSec(m![1]!), end: toSec(m![2]!), text: lines.slice(2).join(' ') };
  });
}

describe('renderVideo', () => {
  let outline: Outline;
  let result: RenderResult;
  const progress: number[] = [];

  it('renders a 4-section journal to an H.264/AAC MP4 matching the narration', async () => {
    outline = buildOutline({ doc: journal }, { title: 'The cell' });
    expect(outline.slides).toHaveLength(4);
    const workDir = join(root, 'main');
    result = await renderVideo(outline, { workDir, onProgress: (pct) => progress.push(pct) });

    // Valid MP4: ftyp first, moov before mdat (+faststart).
    const boxes = await topLevelBoxes(result.mp4Path);
    expect(boxes[0]).toBe('ftyp');
    expect(boxes.indexOf('moov')).toBeGreaterThan(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const info = await probeMedia(result.mp4Path);
    expect(info.videoCodec).toBe('h264');
    expect(info.audioCodec).toBe('aac');
    expect([info.width, info.height]).toEqual([1280, 720]);

    // Duration read back with the bundled ffmpeg matches the narration within 10 %.
    const duration = await probeDurationSeconds(result.mp4Path);
    expect(result.narrationSeconds).toBeGreaterThan(4);
    expect(Math.abs(duration - result.narrationSeconds) / result.narrationSeconds).toBeLessThan(0.1);
    expect(result.durationSeconds).toBeCloseTo(duration, 2);
    expect(result.engine).toMatch(/espeak-ng/);
    expect(result.engine).toMatch(/ffmpeg/);

    // Intermediates are cleaned up.
    await expect(stat(join(workDir, '.parts'))).rejects.toThrow();
  }, 120_000);

  it('reports strictly rising progress ending at 100', () => {
    expect(progress.length).toBeGreaterThan(8);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThan(progress[i - 1]!);
    expect(progress[0]!).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(100);
    // Every phase reports: narration, slides and segment encoding.
    expect(progress.some((x) => x > 1 && x < 40)).toBe(true);
    expect(progress.some((x) => x > 40 && x < 55)).toBe(true);
    expect(progress.some((x) => x > 55 && x < 95)).toBe(true);
  });

  it('takes transcript and sources from the journal', () => {
    expect(result.transcript).toContain('A membrane is a thin layer around the cell.');
    expect(result.transcript).toContain('Ribosomes build proteins.');
    expect(result.transcript.split('\n\n')).toHaveLength(4);
    expect(result.slides.map((s) => s.heading)).toEqual(['Membranes', 'Nucleus', 'Mitochondria', 'Ribosomes']);
    for (const s of result.slides) {
      expect(s.sourceBlockIds.length).toBeGreaterThan(0);
      for (const id of s.sourceBlockIds) expect(blockIds.has(id)).toBe(true);
    }
    expect(result.truncated).toBe(false);
  });

  it('writes well-formed WebVTT timed by the narration', async () => {
    const vtt = await readFile(result.vttPath, 'utf8');
    const cues = parseVtt(vtt);
    expect(cues.length).toBeGreaterThanOrEqual(8); // heading + body per slide
    for (let i = 0; i < cues.length; i++) {
      expect(cues[i]!.end).toBeGreaterThan(cues[i]!.start);
      if (i > 0) expect(cues[i]!.start).toBeGreaterThanOrEqual(cues[i - 1]!.end - 0.001);
    }
    expect(cues.at(-1)!.end).toBeLessThanOrEqual(result.durationSeconds + 0.05);
    expect(cues.map((c) => c.text).join(' ')).toContain('The nucleus stores the genes.');
    // Each slide's captions start when its narration starts.
    for (const s of result.slides) expect(cues.some((c) => Math.abs(c.start - s.start) < 0.002)).toBe(true);
  });

  it('returns the finished render again for the same workDir and inputs', async () => {
    const again: number[] = [];
    const written = (await stat(result.mp4Path)).mtimeMs;
    const r = await renderVideo(outline, { workDir: join(root, 'main'), onProgress: (x) => again.push(x) });
    // Nothing rendered again: the same file, untouched.
    expect(r.mp4Path).toBe(result.mp4Path);
    expect((await stat(r.mp4Path)).mtimeMs).toBe(written);
    expect(r.durationSeconds).toBe(result.durationSeconds);
    expect(again.at(-1)).toBe(100);
  });

  it('restarts after an abort and respects max duration', async () => {
    const workDir = join(root, 'resume');
    const ctrl = new AbortController();
    const seen: number[] = [];
    await expect(
      renderVideo(outline, {
        workDir,
        maxDurationSeconds: 5,
        signal: ctrl.signal,
        onProgress: (x) => {
          seen.push(x);
          if (x >= 45) ctrl.abort();
        },
      }),
    ).rejects.toThrow(/abort/i);
    expect(seen.at(-1)!).toBeLessThan(100);
    // Finished pieces are kept for the restart; half-written ones are not.
    const kept = await readdir(join(workDir, '.parts'));
    expect(kept).toContain('manifest.json');
    expect(kept.some((f) => /^narration-001.*\.wav$/.test(f))).toBe(true);
    expect(kept.some((f) => f.endsWith('.tmp'))).toBe(false);

    const done: number[] = [];
    const r = await renderVideo(outline, { workDir, maxDurationSeconds: 5, onProgress: (x) => done.push(x) });
    expect(r.truncated).toBe(true);
    expect(r.notes.join(' ')).toMatch(/max_duration_seconds=5/);
    expect(r.slides.length).toBeLessThan(4);
    const d = await probeDurationSeconds(r.mp4Path);
    expect(d).toBeLessThanOrEqual(5.1);
    expect(Math.abs(d - r.narrationSeconds) / r.narrationSeconds).toBeLessThan(0.1);
    expect(r.transcript.length).toBeLessThan(result.transcript.length);
    for (let i = 1; i < done.length; i++) expect(done[i]!).toBeGreaterThan(done[i - 1]!);
  }, 120_000);

  it('fails clearly for empty content', async () => {
    expect(() => buildOutline({ doc: { type: 'doc', content: [{ type: 'paragraph', attrs: { id: 'e' } }] } })).toThrow(OutlineError);
    await expect(
      renderVideo({ title: 'Empty', slides: [] }, { workDir: join(root, 'empty'), onProgress: () => {} }),
    ).rejects.toThrow(/no slides/);
    await expect(
      renderVideo({ title: 'x', slides: [{ heading: 'a', points: [], narration: 'Hello.', sourceBlockIds: [] }] }, { workDir: join(root, 'bad-voice'), voice: 'not a voice!', onProgress: () => {} }),
    ).rejects.toThrow(/invalid voice/);
  });
});
