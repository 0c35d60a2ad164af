/** WebVTT captions timed by the narration: cues split by sentence and length, timed by characters. */
import { splitSentences } from '../outline.ts';

export interface CaptionSpan {
  /** Narration text of one slide. */
  text: string;
  /** Start of the narration on the video timeline, in seconds. */
  start: number;
  /** Length of the spoken narration, in seconds. */
  duration: number;
}

export interface Cue {
  start: number;
  end: number;
  text: string;
}

const MAX_CUE_CHARS = 84; // two lines of 42 characters
const LINE_CHARS = 42;

/** Splits a sentence into chunks of at most `max` characters, preferring commas, then spaces. */
export function chunkText(sentence: string, max = MAX_CUE_CHARS): string[] {
  const out: string[] = [];
  let rest = sentence.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = Math.max(window.lastIndexOf(', '), window.lastIndexOf('; '), window.lastIndexOf(': '));
    if (cut < max * 0.4) cut = window.lastIndexOf(' ');
    else cut += 1; // keep the punctuation on the first chunk
    if (cut <= 0) cut = max;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

function wrapLines(text: string): string {
  if (text.length <= LINE_CHARS) return text;
  const mid = Math.floor(text.length / 2);
  let best = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ' ' && (best < 0 || Math.abs(i - mid) < Math.abs(best - mid))) best = i;
  }
  return best < 0 ? text : `${text.slice(0, best)}\n${text.slice(best + 1)}`;
}

/** Builds cues: each slide's narration span is shared among its chunks in proportion to length. */
export function buildCues(spans: CaptionSpan[]): Cue[] {
  const cues: Cue[] = [];
  for (const span of spans) {
    const chunks = splitSentences(span.text).flatMap((s) => chunkText(s));
    const total = chunks.reduce((n, c) => n + c.length + 1, 0);
    let t = span.start;
    for (const c of chunks) {
      const d = total ? (span.duration * (c.length + 1)) / total : 0;
      const start = Math.round(t * 1000) / 1000;
      const end = Math.round((t + d) * 1000) / 1000;
      if (end > start) cues.push({ start, end, text: c });
      t += d;
    }
  }
  return cues;
}

export function formatTimestamp(sec: number): string {
  const ms = Math.max(0, Math.round(sec * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const f = ms % 1000;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(h)}:${p(m)}:${p(s)}.${p(f, 3)}`;
}

function escapeCue(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/-->/g, '→');
}

export function toWebVtt(cues: Cue[]): string {
  const parts = ['WEBVTT', ''];
  cues.forEach((c, i) => {
    parts.push(String(i + 1), `${formatTimestamp(c.start)} --> ${formatTimestamp(c.end)}`, wrapLines(escapeCue(c.text)), '');
  });
  return parts.join('\n');
}
