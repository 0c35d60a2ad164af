/**
 * Offline video engine: outline -> narration (eSpeak NG) -> slides (canvas) -> per-slide H.264/AAC
 * segments (ffmpeg) -> one MP4 with +faststart, plus WebVTT captions timed by the narration.
 *
 * Restartable: every intermediate lives in `<workDir>/.parts/` under a manifest keyed by the
 * outline and options; a rerun with the same workDir and inputs reuses finished pieces (files are
 * written to `*.tmp` and renamed, so a file that exists is complete), and a rerun with different
 * inputs starts from scratch. A finished render is cached in `<workDir>/result.json`.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chunkText, buildCues, toWebVtt, type CaptionSpan } from './captions.ts';
import { AbortedError, probeMedia, resolveFfmpeg, runFfmpeg } from './ffmpeg.ts';
import { renderSlidePng, SLIDE_HEIGHT, SLIDE_WIDTH } from './slides.ts';
import { normalizeVoice, resolveSpeechEngine, synthesizeToWav } from './speech.ts';
import { readWavInfo } from './wav.ts';
import { clampMaxDuration, speechText, splitSentences, type Outline } from '../outline.ts';

export { probeDurationSeconds, probeMedia, resolveFfmpeg, AbortedError } from './ffmpeg.ts';
export { resolveSpeechEngine, shutdownSpeech, DEFAULT_VOICE } from './speech.ts';
export { SLIDE_WIDTH, SLIDE_HEIGHT } from './slides.ts';

const ENGINE_VERSION = 1;
const FPS = 25;

export interface RenderOptions {
  workDir: string;
  /** eSpeak voice, e.g. `en-us` (default), `en-gb`, `en-us+f3`. */
  voice?: string;
  /** Called with strictly increasing percentages in (0, 100]; the last call is 100. */
  onProgress: (pct: number) => void;
  signal?: AbortSignal;
  /** Hard upper bound of the video length (clamped to 1..600 seconds, default 600). */
  maxDurationSeconds?: number;
  /** Threads given to each ffmpeg run (default 1, leaving a core to the service). */
  ffmpegThreads?: number;
}

export interface RenderedSlide {
  heading: string;
  start: number;
  end: number;
  narration: string;
  sourceBlockIds: string[];
}

export interface RenderResult {
  mp4Path: string;
  vttPath: string;
  /** The narration as spoken, slide by slide (paragraphs separated by blank lines). */
  transcript: string;
  /** Duration of the MP4 as read back with ffmpeg. */
  durationSeconds: number;
  /** Total length of the synthesized narration audio. */
  narrationSeconds: number;
  /** Which speech engine and ffmpeg produced the video. */
  engine: string;
  truncated: boolean;
  notes: string[];
  slides: RenderedSlide[];
}

class Progress {
  private last = 0;
  constructor(private readonly cb: (pct: number) => void) {}
  report(pct: number): void {
    const v = Math.floor(Math.min(99.9, Math.max(0, pct)) * 10) / 10;
    if (v > this.last) {
      this.last = v;
      this.cb(v);
    }
  }
  done(): void {
    if (this.last < 100) {
      this.last = 100;
      this.cb(100);
    }
  }
}

function pad3(n: number): string {
  return String(n).padStart(3, '0');
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await writeFile(`${path}.tmp`, data);
  await rename(`${path}.tmp`, path);
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw new AbortedError();
}

/** Tail silence after each slide's narration: short, so the video tracks the narration closely. */
function slideSeconds(narration: number): number {
  const pad = Math.min(0.2, narration * 0.03);
  return Math.ceil((narration + pad) * FPS) / FPS;
}

/** Truncation units of a narration: sentences, long ones cut into chunks. */
function narrationUnits(text: string): string[] {
  return splitSentences(text).flatMap((s) => chunkText(s, 200));
}

export async function renderVideo(outline: Outline, opts: RenderOptions): Promise<RenderResult> {
  const progress = new Progress(opts.onProgress);
  const { signal } = opts;
  checkAbort(signal);
  if (!outline || !Array.isArray(outline.slides) || outline.slides.length === 0) {
    throw new Error('the outline has no slides: nothing to render');
  }
  const voice = normalizeVoice(opts.voice);
  const maxSeconds = clampMaxDuration(opts.maxDurationSeconds);
  const threads = Math.max(1, Math.floor(opts.ffmpegThreads ?? 1));
  const slidesIn = outline.slides.map((s) => ({ ...s, narration: speechText(s.narration) }));
  if (slidesIn.every((s) => !s.narration)) throw new Error('the outline has no narration: nothing to say');

  const [ff, speech] = await Promise.all([resolveFfmpeg(), resolveSpeechEngine()]);
  const engine = `offline: espeak-ng ${speech.kind === 'system' ? `${speech.version} (system)` : '(wasm, npm espeak-ng)'} + ffmpeg ${ff.version} (${ff.source}) + @napi-rs/canvas`;
  progress.report(1);

  const workDir = opts.workDir;
  const parts = join(workDir, '.parts');
  const mp4Path = join(workDir, 'video.mp4');
  const vttPath = join(workDir, 'captions.vtt');
  const resultPath = join(workDir, 'result.json');
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        v: ENGINE_VERSION,
        title: outline.title,
        slides: slidesIn.map((s) => [s.heading, s.points, s.narration]),
        voice,
        maxSeconds,
        speech: speech.kind,
        ff: `${ff.source}:${ff.version}`,
      }),
    )
    .digest('hex');

  await mkdir(workDir, { recursive: true });
  // A finished render with the same inputs is returned as is.
  try {
    const cached = JSON.parse(await readFile(resultPath, 'utf8')) as { key: string; result: RenderResult };
    if (cached.key === key && (await exists(mp4Path)) && (await exists(vttPath))) {
      progress.done();
      return { ...cached.result, mp4Path, vttPath };
    }
  } catch {
    /* no usable cache */
  }
  await rm(resultPath, { force: true });
  const manifestPath = join(parts, 'manifest.json');
  let manifestKey = '';
  try {
    manifestKey = (JSON.parse(await readFile(manifestPath, 'utf8')) as { key: string }).key;
  } catch {
    /* fresh */
  }
  if (manifestKey !== key) {
    await rm(parts, { recursive: true, force: true });
    await mkdir(parts, { recursive: true });
    await writeAtomic(manifestPath, JSON.stringify({ key, createdAt: new Date().toISOString() }));
  }

  try {
    // ---- 1. Narration (1% -> 40%) --------------------------------------------------------------
    const notes: string[] = [...(outline.notes ?? [])];
    let truncated = Boolean(outline.truncated);
    const spoken: Array<{ heading: string; points: string[]; narration: string; sourceBlockIds: string[]; wav: string; seconds: number; slideSeconds: number }> = [];
    let timeline = 0;
    for (let i = 0; i < slidesIn.length; i++) {
      checkAbort(signal);
      const s = slidesIn[i]!;
      const text = s.narration || speechText(s.heading);
      const wav = join(parts, `narration-${pad3(i + 1)}.wav`);
      if (!(await exists(wav))) {
        await synthesizeToWav(text, `${wav}.tmp`, { voice, signal });
        await rename(`${wav}.tmp`, wav);
      }
      let seconds = (await readWavInfo(wav)).durationSeconds;
      let narration = text;
      let wavPath = wav;
      if (timeline + slideSeconds(seconds) > maxSeconds) {
        // Keep the leading sentences that fit in the remaining time; drop the rest of the video.
        truncated = true;
        const remaining = maxSeconds - timeline;
        const units = narrationUnits(text);
        let keep = Math.floor(units.length * Math.max(0, remaining / slideSeconds(seconds)));
        let fitted = false;
        for (let attempt = 0; keep > 0 && attempt < 6; attempt++, keep--) {
          checkAbort(signal);
          narration = units.slice(0, keep).join(' ');
          wavPath = join(parts, `narration-${pad3(i + 1)}-cut${keep}.wav`);
          if (!(await exists(wavPath))) {
            await synthesizeToWav(narration, `${wavPath}.tmp`, { voice, signal });
            await rename(`${wavPath}.tmp`, wavPath);
          }
          seconds = (await readWavInfo(wavPath)).durationSeconds;
          if (timeline + slideSeconds(seconds) <= maxSeconds) {
            fitted = true;
            break;
          }
        }
        const kept = fitted ? i + 1 : i;
        if (fitted) {
          spoken.push({ ...s, narration, wav: wavPath, seconds, slideSeconds: slideSeconds(seconds) });
          timeline += slideSeconds(seconds);
        }
        if (kept === 0) throw new Error(`max_duration_seconds=${maxSeconds} is too short for even the first sentence`);
        notes.push(
          `video truncated to max_duration_seconds=${maxSeconds}: ${kept} of ${slidesIn.length} slides, ` +
            (fitted ? `the last one shortened to ${keep} of ${units.length} sentences` : 'the next slide did not fit'),
        );
        progress.report(40);
        break;
      }
      spoken.push({ ...s, narration, wav: wavPath, seconds, slideSeconds: slideSeconds(seconds) });
      timeline += slideSeconds(seconds);
      progress.report(1 + (39 * (i + 1)) / slidesIn.length);
    }

    // ---- 2. Slides (40% -> 55%) ----------------------------------------------------------------
    for (let i = 0; i < spoken.length; i++) {
      checkAbort(signal);
      const png = join(parts, `slide-${pad3(i + 1)}-of-${pad3(spoken.length)}.png`);
      if (!(await exists(png))) {
        const s = spoken[i]!;
        const bytes = await renderSlidePng({ heading: s.heading, points: s.points, deckTitle: outline.title, index: i + 1, total: spoken.length });
        await writeAtomic(png, bytes);
      }
      progress.report(40 + (15 * (i + 1)) / spoken.length);
    }

    // ---- 3. Segments (55% -> 95%) --------------------------------------------------------------
    const totalSeconds = spoken.reduce((n, s) => n + s.slideSeconds, 0);
    let encodedBefore = 0;
    const segs: string[] = [];
    for (let i = 0; i < spoken.length; i++) {
      checkAbort(signal);
      const s = spoken[i]!;
      const png = join(parts, `slide-${pad3(i + 1)}-of-${pad3(spoken.length)}.png`);
      const seg = join(parts, `segment-${pad3(i + 1)}-${Math.round(s.slideSeconds * 1000)}.mp4`);
      segs.push(seg);
      if (!(await exists(seg))) {
        const base = encodedBefore;
        await runFfmpeg(
          [
            // The still is decoded once per second (-framerate 1) and duplicated by the fps filter:
            // five times faster than decoding the PNG for every frame.
            '-y', '-loop', '1', '-framerate', '1', '-i', png, '-i', s.wav,
            '-map', '0:v:0', '-map', '1:a:0',
            '-vf', `scale=${SLIDE_WIDTH}:${SLIDE_HEIGHT},format=yuv420p,fps=${FPS}`,
            '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'stillimage', '-crf', '24',
            '-g', String(FPS * 10), '-threads', String(threads),
            '-af', 'aresample=44100,apad', '-c:a', 'aac', '-b:a', '96k', '-ac', '1', '-ar', '44100',
            '-t', s.slideSeconds.toFixed(3),
            '-movflags', '+faststart', '-progress', 'pipe:1', '-nostats',
            '-f', 'mp4', `${seg}.tmp`,
          ],
          {
            signal,
            onTime: (t) => progress.report(55 + (40 * (base + Math.min(t, s.slideSeconds))) / totalSeconds),
          },
        );
        await rename(`${seg}.tmp`, seg);
      }
      encodedBefore += s.slideSeconds;
      progress.report(55 + (40 * encodedBefore) / totalSeconds);
    }

    // ---- 4. Concatenate (95% -> 98%) -----------------------------------------------------------
    checkAbort(signal);
    const list = join(parts, 'segments.txt');
    await writeAtomic(list, segs.map((p) => `file '${p.replace(/'/g, `'\\''`)}'`).join('\n') + '\n');
    await runFfmpeg(
      [
        '-y', '-f', 'concat', '-safe', '0', '-i', list,
        '-c:v', 'copy', '-c:a', 'aac', '-b:a', '96k', '-ac', '1', '-ar', '44100',
        '-movflags', '+faststart', '-progress', 'pipe:1', '-nostats',
        '-f', 'mp4', `${mp4Path}.tmp`,
      ],
      { signal, onTime: (t) => progress.report(95 + (3 * Math.min(t, totalSeconds)) / totalSeconds) },
    );
    await rename(`${mp4Path}.tmp`, mp4Path);
    progress.report(98);

    // ---- 5. Captions, transcript, check (98% -> 100%) ------------------------------------------
    const spans: CaptionSpan[] = [];
    const slides: RenderedSlide[] = [];
    let t = 0;
    for (const s of spoken) {
      spans.push({ text: s.narration, start: t, duration: s.seconds });
      slides.push({ heading: s.heading, start: round3(t), end: round3(t + s.slideSeconds), narration: s.narration, sourceBlockIds: s.sourceBlockIds });
      t += s.slideSeconds;
    }
    await writeAtomic(vttPath, toWebVtt(buildCues(spans)));
    const info = await probeMedia(mp4Path);
    if (info.videoCodec !== 'h264' || info.audioCodec !== 'aac') {
      throw new Error(`unexpected output codecs: video=${info.videoCodec} audio=${info.audioCodec}`);
    }
    progress.report(99.5);
    const result: RenderResult = {
      mp4Path,
      vttPath,
      transcript: spoken.map((s) => s.narration).join('\n\n'),
      durationSeconds: round3(info.durationSeconds),
      narrationSeconds: round3(spoken.reduce((n, s) => n + s.seconds, 0)),
      engine,
      truncated,
      notes,
      slides,
    };
    await writeAtomic(resultPath, JSON.stringify({ key, result }));
    await rm(parts, { recursive: true, force: true });
    progress.done();
    return result;
  } catch (err) {
    // Keep finished pieces for a restart; drop half-written ones.
    await removeTmp(parts);
    await rm(`${mp4Path}.tmp`, { force: true });
    throw err;
  }
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

async function removeTmp(dir: string): Promise<void> {
  try {
    for (const f of await readdir(dir)) if (f.endsWith('.tmp')) await rm(join(dir, f), { force: true });
  } catch {
    /* directory gone */
  }
}
