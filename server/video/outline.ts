/**
 * Outline builder for the offline video engine: turns a journal (ProseMirror JSON of
 * shared/schema.ts) or plain text into slides. Headings start slides; paragraphs, list items and
 * table rows become points (what is drawn) and narration (what is spoken). Every slide names the
 * block ids it was built from, so transcripts and sources are traceable to the journal.
 *
 * The document walker and the sentence splitter live in server/sources/text-blocks.ts, shared
 * with the flashcard extractor and practice.
 */
import { cleanText, flattenInput, SourceTextError, splitSentences, type FlatBlock, type SourceInput } from '../sources/text-blocks.ts';

// Re-exported under the names the video engine and its suites use.
export { SourceTextError as OutlineError, splitSentences, type PMJSON } from '../sources/text-blocks.ts';
export type OutlineInput = SourceInput;

export interface OutlineOptions {
  title?: string;
  /** Upper bound for the spoken length, in seconds (clamped to 1..600, default 600). */
  maxDurationSeconds?: number;
}

export interface OutlineSlide {
  heading: string;
  points: string[];
  narration: string;
  sourceBlockIds: string[];
}

export interface Outline {
  title: string;
  slides: OutlineSlide[];
  /** True when content was dropped to respect maxDurationSeconds. */
  truncated?: boolean;
  /** Human-readable notes about what was changed (truncation, skipped content). */
  notes?: string[];
}

export const MAX_VIDEO_SECONDS = 600;
/** Estimated speaking rate of the narration voice (espeak-ng at 165 words per minute). */
export const WORDS_PER_SECOND = 165 / 60;
const MAX_POINTS_PER_SLIDE = 6;
const MAX_NARRATION_CHARS_PER_SLIDE = 900;
const MAX_POINT_CHARS = 140;
const MAX_HEADING_CHARS = 90;

// ---------------------------------------------------------------------------------------------
// Speech text

/** Makes text suitable for a speech engine: no URLs, markup residue or control characters. */
export function speechText(text: string): string {
  let t = text
    .replace(/https?:\/\/\S+/g, 'link')
    .replace(/[`*_#~|<>\\{}[\]^]+/g, ' ')
    .replace(/\s—\s/g, ', ')
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
  t = cleanText(t);
  return t;
}

function ensureSentence(t: string): string {
  const s = cleanText(t);
  if (!s) return s;
  return /[.!?…]["')\]]*$/.test(s) ? s : `${s.replace(/[:;,]+$/, '')}.`;
}

function shorten(s: string, max: number): string {
  const t = cleanText(s);
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max * 0.6 ? cut.slice(0, sp) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** Estimated seconds to speak `text`. */
export function estimateSpeechSeconds(text: string): number {
  const words = cleanText(text).split(' ').filter(Boolean).length;
  return words / WORDS_PER_SECOND;
}

// ---------------------------------------------------------------------------------------------
// Outline

interface Section {
  heading: string;
  headingId?: string;
  blocks: FlatBlock[];
}

function sectionize(blocks: FlatBlock[], explicitTitle: string | undefined): { title: string; sections: Section[] } {
  const headings = blocks.filter((b) => b.kind === 'heading');
  let title = explicitTitle?.trim() ? cleanText(explicitTitle) : '';
  let splitLevel = headings.length ? Math.min(...headings.map((h) => h.level ?? 1)) : 7;
  let body = blocks;
  const atTop = headings.filter((h) => (h.level ?? 1) === splitLevel);
  // A single top-level heading that opens the document is the document's title; its subheadings
  // start the slides.
  if (atTop.length === 1 && blocks[0] === atTop[0] && headings.length > 1) {
    if (!title) title = blocks[0]!.text;
    body = blocks.slice(1);
    const deeper = headings.filter((h) => h !== atTop[0]).map((h) => h.level ?? 1);
    splitLevel = Math.min(...deeper);
  }
  const firstText = blocks.find((b) => b.kind !== 'code');
  if (!title) title = firstText ? shorten(splitSentences(firstText.text)[0] ?? firstText.text, 60).replace(/[.!?]$/, '') : 'Untitled';
  title = shorten(title, MAX_HEADING_CHARS);

  const sections: Section[] = [];
  let cur: Section | null = null;
  for (const b of body) {
    if (b.kind === 'heading' && (b.level ?? 1) <= splitLevel) {
      cur = { heading: shorten(b.text, MAX_HEADING_CHARS), headingId: b.id, blocks: [] };
      sections.push(cur);
      continue;
    }
    if (!cur) {
      cur = { heading: title, blocks: [] };
      sections.push(cur);
    }
    cur.blocks.push(b);
  }
  return { title, sections };
}

interface Item {
  point: string;
  narration: string;
  id?: string;
}

function itemsOf(b: FlatBlock): Item[] {
  switch (b.kind) {
    case 'heading': {
      const h = shorten(speechText(b.text), MAX_POINT_CHARS);
      return [{ point: h, narration: ensureSentence(speechText(b.text)), id: b.id }];
    }
    case 'paragraph': {
      const spoken = splitSentences(speechText(b.text)).map(ensureSentence).join(' ');
      const first = splitSentences(speechText(b.text))[0] ?? b.text;
      return [{ point: shorten(first, MAX_POINT_CHARS), narration: spoken, id: b.id }];
    }
    case 'list_item':
    case 'table_row': {
      const spoken = ensureSentence(speechText(b.text));
      return [{ point: shorten(speechText(b.text), MAX_POINT_CHARS), narration: spoken, id: b.id }];
    }
    case 'code':
      return [{ point: shorten(`Code: ${b.text.split('\n')[0]}`, MAX_POINT_CHARS), narration: '', id: b.id }];
  }
}

function pushUnique(arr: string[], v: string | undefined): void {
  if (v && !arr.includes(v)) arr.push(v);
}

/**
 * Builds slides from a journal or plain text. Throws SourceTextError (exported here as OutlineError) when there is nothing to say.
 */
export function buildOutline(input: OutlineInput, opts: OutlineOptions = {}): Outline {
  const blocks = flattenInput(input);
  if (!blocks.some((b) => b.kind !== 'code')) {
    throw new SourceTextError('the content is empty: there is no text to build slides from');
  }
  const { title, sections } = sectionize(blocks, opts.title);
  const notes: string[] = [];
  const slides: OutlineSlide[] = [];

  for (const sec of sections) {
    const headingSentence = ensureSentence(speechText(sec.heading));
    let slide: OutlineSlide = { heading: sec.heading, points: [], narration: headingSentence, sourceBlockIds: [] };
    pushUnique(slide.sourceBlockIds, sec.headingId);
    const items = sec.blocks.flatMap(itemsOf);
    for (const it of items) {
      const full =
        slide.points.length >= MAX_POINTS_PER_SLIDE ||
        (slide.points.length > 0 && slide.narration.length + it.narration.length > MAX_NARRATION_CHARS_PER_SLIDE);
      if (full) {
        slides.push(slide);
        slide = { heading: `${sec.heading} (continued)`, points: [], narration: '', sourceBlockIds: [] };
      }
      slide.points.push(it.point);
      if (it.narration) slide.narration = cleanText(`${slide.narration} ${it.narration}`);
      pushUnique(slide.sourceBlockIds, it.id);
    }
    if (!slide.narration) slide.narration = headingSentence;
    slides.push(slide);
  }
  if (!slides.length) throw new SourceTextError('the content is empty: there is no text to build slides from');

  // Respect the duration bound (estimated here; the engine enforces it on the real audio).
  const maxSec = clampMaxDuration(opts.maxDurationSeconds);
  const kept: OutlineSlide[] = [];
  let total = 0;
  let truncated = false;
  for (const s of slides) {
    const est = estimateSpeechSeconds(s.narration);
    if (total + est <= maxSec) {
      kept.push(s);
      total += est;
      continue;
    }
    // Keep as many leading sentences of this slide as fit, then stop.
    const sentences = splitSentences(s.narration);
    const fit: string[] = [];
    for (const sen of sentences) {
      if (total + estimateSpeechSeconds([...fit, sen].join(' ')) > maxSec) break;
      fit.push(sen);
    }
    if (fit.length) kept.push({ ...s, narration: fit.join(' ') });
    truncated = true;
    break;
  }
  if (!kept.length) {
    // Even one sentence does not fit: keep the first slide's heading so something is rendered.
    const s = slides[0]!;
    kept.push({ ...s, narration: ensureSentence(speechText(s.heading)) });
    truncated = true;
  }
  if (truncated) {
    notes.push(
      `content truncated to fit max_duration_seconds=${maxSec}: kept ${kept.length} of ${slides.length} slides`,
    );
  }
  return { title, slides: kept, ...(truncated ? { truncated: true } : {}), ...(notes.length ? { notes } : {}) };
}

export function clampMaxDuration(v: number | undefined): number {
  if (v === undefined || v === null || !Number.isFinite(v)) return MAX_VIDEO_SECONDS;
  return Math.min(MAX_VIDEO_SECONDS, Math.max(1, v));
}
