/**
 * Rubric text → criteria (see rubric.ts for the layouts read). Lines and segments (segment.ts)
 * become pieces (piece.ts); headings ("Award 3 marks for:", "Any two of (1 mark each):") open a
 * scope over the pieces after them; runs of pieces written as level descriptors become one
 * Levels criterion; "each"/"per" pieces become PerItem criteria; the rest are concepts.
 */
import { categoryOf, categoryWords } from './category.ts';
import { contrariesOf, NO_CONTRARIES } from './contrary.ts';
import { anyCount, capOf, leadMarker, markerAt, MARKER_START, NUM, toNumber, trailMarker } from './markers.ts';
import { criterionWords, LEVEL_QUALITY, matchWord } from './match.ts';
import { rewriteLayouts } from './layouts.ts';
import { listItems, type Piece, readPiece, readReferenceLine, sentenceNotes } from './piece.ts';
import { rubricLines, type Segment, splitLine, splitOutside } from './segment.ts';
import type { Concept, Criterion, Level, Levels, PerItem, ReadRubric } from './types.ts';
import { listedTotal, writtenCap, writtenTotal } from './totals.ts';

interface Heading {
  text: string;
  /** The points the heading gives its list ("Award 3 marks for:"); `per` when it gives them per item. */
  points: number | null;
  per: number | null;
  cap: number | null;
  any: number | null;
  /** The list below names options counted one by one ("Any two of:", "1 mark for each of:"). */
  options: boolean;
}

const TOTAL = new RegExp(
  String.raw`^[(\[]?\s*(?:(?:total|max(?:imum)?)(?:\s+(?:marks?|points?|score))?|out\s+of)\s*(?:[:=\-–—]|is|of)?\s*(${NUM})\s*(?:marks?|points?|pts?)?\s*(?:total)?\s*[)\]]?\.?$|^[(\[]?\s*(${NUM})\s*(?:marks?|points?|pts?)\s*(?:total|in\s+total|overall)?\s*[)\]]?\.?$`,
  'i',
);
const HEADING_WORDS = /^(?:mark(?:ing)?\s+(?:scheme|guide|criteria)|rubric|scoring(?:\s+(?:guide|rubric|criteria))?|criteria|success\s+criteria|answer\s+key|indicative\s+content|(?:q|question|part|task)\s*\(?\d*[a-z]?\)?(?:\s*\(?[a-z0-9]{1,3}\))?\s*(?=[(\[]|$|[:.\-–—]))/i;
const INLINE_HEADING = new RegExp(
  String.raw`^\s*(?:award|give|allow|mark(?:ing)?\s+scheme|rubric|scoring|criteria|look\s+for)\b|\b(?:any\s+(?:${NUM}\s+)?(?:of|from)|(?:each|one)\s+of|the\s+following|(?:should|must)\s+(?:include|mention|cover|contain|state|explain|name)|total\s*[:=]?\s*\d)`,
  'i',
);
const GUIDANCE = /\b(?:indicative\s+content|possible\s+(?:points|answers|content)|(?:answers|points|responses)\s+(?:may|might|could)\s+include|points\s+to\s+look\s+for|guidance)\b/i;
const HEADING_TOTAL = new RegExp(String.raw`\b(?:total|out\s+of)\s*[:=]?\s*(${NUM})`, 'i');

function readHeading(raw: string): Heading {
  let text = raw.replace(/:\s*$/, '').trim();
  const capped = capOf(text);
  let cap = capped?.cap ?? null;
  if (capped) text = capped.rest;
  const any = anyCount(text);
  let points: number | null = null;
  let each = /\b(?:each|per|every)\b/i.test(text);
  let plain = text;
  MARKER_START.lastIndex = 0;
  for (let m = MARKER_START.exec(text); m; m = MARKER_START.exec(text)) {
    const mk = markerAt(text, m.index);
    if (!mk) continue;
    points = mk.points;
    // "Any 2 × 1 mark": the marks after "×" are per item.
    each ||= mk.each || /\d\s*[×x]\s*$/i.test(text.slice(0, mk.start));
    cap ??= mk.cap;
    plain = text.slice(0, mk.start) + text.slice(mk.end);
    break;
  }
  const total = HEADING_TOTAL.exec(text);
  if (points === null && total) points = toNumber(total[1]);
  const options = each || any !== null || /\b(?:any|one)\s+of\b/i.test(text);
  const per = each ? (points ?? 1) : any && points ? points / any : null;
  plain = plain
    .replace(/^\s*(?:award|give|allow|score)\b/i, '')
    .replace(/^\s*(?:each\s+)?(?:for\s+)?/i, '')
    .replace(/\b(?:for|each|per)\s*$/i, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s:,\-–—]+|[\s:,\-–—]+$/g, '')
    .trim();
  return { text: plain, points: each ? null : points, per, cap, any, options };
}

function firstColon(line: string): number {
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === ':' && depth === 0) return i;
  }
  return -1;
}

/** "Award 3 marks for: A; B; C", "1 point each for any of: A, B, C (max 3)" — a heading and its list on one line. */
function inlineHeading(line: string): { heading: Heading; items: Segment[] } | null {
  const colon = firstColon(line);
  if (colon < 0) return null;
  const head = line.slice(0, colon);
  const rest = line.slice(colon + 1).trim();
  if (!/[a-z]/i.test(rest)) return null;
  // "1 mark for each technique, max 2: e.g. A; B": examples of one per-item criterion, not a list of criteria.
  if (/^(?:e\.?\s?g\.?|for\s+example|for\s+instance|such\s+as)(?=[\s:,])/i.test(rest) && /\b(?:each|per|every)\b/i.test(line.slice(0, colon))) return null;
  const eachHead = /\b(?:each|per|any)\b/i.test(head) && (leadMarker(`${head}: _`) !== null || /\bany\b/i.test(head));
  if (!INLINE_HEADING.test(head) && !eachHead) return null;
  const capped = capOf(rest);
  let list = capped ? capped.rest : rest;
  // "Any 3 from: A, B, C (1 mark each)": the marker after the list is the heading's.
  const trail = trailMarker(list);
  const tail = trail && listItems(trail.rest).length > 1 ? list.slice(trail.rest.length) : '';
  if (tail) list = trail!.rest;
  const heading = readHeading(`${head}${tail ? ` ${tail}` : ''}${capped ? ` (max ${capped.cap})` : ''}`);
  let items = splitLine(list);
  if (items.length < 2) items = splitOutside(list, /^;\s*/).map((text) => ({ text, slash: false }));
  if (items.length < 2 && (heading.options || (heading.points !== null && listItems(list).length === heading.points))) {
    items = listItems(list).map((text) => ({ text, slash: false }));
  }
  if (items.length < 2 && !heading.options) return null;
  return { heading, items };
}

/** `max`: written as a cap ("Max 3", "maximum 2 marks") rather than a total. */
type Entry = { kind: 'heading'; heading: Heading } | { kind: 'total'; n: number; max: boolean } | { kind: 'piece'; piece: Piece };

function readEntries(raw: string): Entry[] {
  const lines = rubricLines(raw);
  const entries: Entry[] = [];
  const pushSegment = (seg: Segment, line: number) => {
    const total = TOTAL.exec(seg.text);
    if (total) {
      entries.push({ kind: 'total', n: toNumber(total[1] ?? total[2]), max: /^[(\[]?\s*max/i.test(seg.text) });
      return;
    }
    const piece = readPiece(seg.text, line, seg.slash);
    const parts = piece.kind === 'criterion' && piece.points === null && !piece.label && !piece.each ? splitOutside(seg.text, /^;\s*/) : [];
    if (parts.length > 1) for (const part of parts) entries.push({ kind: 'piece', piece: readPiece(part, line, false) });
    else entries.push({ kind: 'piece', piece });
  };
  lines.forEach((whole, i) => {
    if (TOTAL.test(whole)) return pushSegment({ text: whole, slash: false }, i);
    const { main: line, notes } = sentenceNotes(whole);
    const pushNotes = () => notes.forEach((text) => pushSegment({ text, slash: false }, i));
    const inline = inlineHeading(line);
    if (inline) {
      entries.push({ kind: 'heading', heading: inline.heading });
      for (const seg of inline.items) pushSegment(seg, i);
      return pushNotes();
    }
    const lead = leadMarker(line);
    const colonEnd = /:\s*$/.test(line) && (i + 1 < lines.length || INLINE_HEADING.test(line));
    if (colonEnd || (HEADING_WORDS.test(line) && !lead)) {
      entries.push({ kind: 'heading', heading: readHeading(line) });
      return;
    }
    for (const seg of splitLine(line)) pushSegment(seg, i);
    pushNotes();
  });
  return entries;
}

/** Alternatives inside a criterion: "X OR Y", "X / Y", and "mentions food shortages or high bread prices". */
function alternatives(text: string): string[] {
  // "speed = distance / time" is a formula, not two alternatives.
  const sep = /[=×÷*^]|\d\s*\/|\/\s*\d/.test(text) ? /\s+OR\s+|\s+\|\s+/ : /\s+OR\s+|\s+\/\s+|\s+\|\s+/;
  const parts = text
    .split(sep)
    .map((s) => s.trim())
    .filter((s) => /[a-z0-9]/i.test(s));
  return parts.length === 1 ? [text, ...orAlternatives(text)] : parts;
}

/** Content words each side of a lowercase "or" must have for the two to be read as alternatives. */
const OR_SIDE_WORDS = 2;
const OR_RIGHT_MAX_WORDS = 4;
const OR_VARIANT_WORDS = 3;

/**
 * "mentions the financial crisis or debt of the French state" → "mentions the financial crisis",
 * "mentions debt of the French state": what follows "or" (to the end, a comma or a semicolon)
 * replaces as many content words before it, and the words before those are shared. Only when each
 * side names something of its own (two content words or more): "explains that heat or light is
 * released" stays whole.
 */
function orAlternatives(text: string): string[] {
  const m = /\s+or\s+([^,;]+)/.exec(text);
  if (!m || /\s+or\s+/.test(m[1]!)) return [];
  const right = m[1]!.trim();
  // "the character or force that opposes the protagonist": a clause after the right side is both sides'.
  if (/\b(?:that|which|who|whose|where|when)\b/i.test(right)) return [];
  const rightWords = criterionWords(right).length;
  const leftText = text.slice(0, m.index);
  const leftWords = criterionWords(leftText);
  if (rightWords < OR_SIDE_WORDS || rightWords > OR_RIGHT_MAX_WORDS || leftWords.length < OR_SIDE_WORDS) return [];
  // The left alternative: its last content words, as many as the right has, with an article before them.
  const tokens = leftText.split(/\s+/);
  const first = leftWords[Math.max(0, leftWords.length - rightWords)]!;
  let start = tokens.map((t) => t.toLowerCase().replace(/[^a-z0-9'-]/g, '')).lastIndexOf(first);
  if (start < 0) return [];
  if (start > 0 && /^(?:the|a|an)$/i.test(tokens[start - 1]!)) start--;
  const prefix = tokens.slice(0, start).join(' ');
  const tail = text.slice(m.index + m[0].length);
  // A side of two words is met by one of them ("the harvest" for "crop failures"): each side needs three.
  const sides = [leftText + tail, `${prefix} ${right}`.trim() + tail];
  return sides.every((v) => criterionWords(v).length >= OR_VARIANT_WORDS) ? sides : [];
}

/** "names the enzyme (amylase)": the bracketed word is the answer named. */
const NAMING = /^(?:names?|naming|identif(?:y|ies|ying)|states?|stating|gives?|giving|writes?|writing|selects?|selecting|chooses?|choosing|recogni[sz](?:es?|ing))\b/i;

function concept(p: Piece, points: number): Concept {
  // "names the enzyme (amylase)", "states the formula: v = d / t": the bracket or what follows the colon is the answer.
  const named = NAMING.test(p.text) ? [...p.text.matchAll(/\(([^()]{1,40})\)/g)].map((m) => m[1]!.trim()) : [];
  const colon = NAMING.test(p.text) ? firstColon(p.text) : -1;
  if (colon > 0 && /[a-z0-9]/i.test(p.text.slice(colon + 1))) named.push(p.text.slice(colon + 1).trim());
  const variants = [...alternatives(p.text), ...named, ...p.accepts, ...p.examples];
  return { kind: 'concept', text: p.text, points, variants: [...new Set(variants)], rejects: p.rejects };
}

/** Notes and "OR" lines join the criterion before them. */
function joinNotes(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  let or = false;
  for (const p of pieces) {
    const prev = out[out.length - 1];
    if (p.kind === 'or') or = prev !== undefined;
    else if (p.kind === 'modifier') {
      if (prev) {
        prev.accepts.push(...p.accepts);
        prev.rejects.push(...p.rejects);
        prev.examples.push(...p.examples);
      } else if (p.accepts.length) out.push({ ...p, kind: 'criterion', text: p.accepts.join(' / '), accepts: [], rejects: [...p.rejects] });
    } else if ((or || p.alternative) && prev) {
      prev.accepts.push(p.text, ...p.accepts, ...p.examples);
      prev.rejects.push(...p.rejects);
      if (p.points !== null) prev.points = Math.max(prev.points ?? 0, p.points);
      or = false;
    } else out.push({ ...p, accepts: [...p.accepts], rejects: [...p.rejects] });
  }
  return out.filter((p) => p.text || p.accepts.length);
}

function levelWords(text: string): string[] {
  return criterionWords(text, LEVEL_QUALITY);
}

/** A lower level's words mostly among the higher level's: "names X" under "explains X and Y". */
function nested(higher: Piece, lower: Piece): boolean {
  const hi = levelWords(higher.text);
  const lo = levelWords(lower.text);
  if (!lo.length) return false;
  const shared = lo.filter((w) => hi.some((h) => { const m = matchWord(w, h); return m === 'exact' || m === 'lemma'; })).length;
  return shared / lo.length >= 0.5;
}

/** Whether a run of leading-marker pieces with falling points are levels of one criterion, not separate criteria. */
function isLevelRun(run: Piece[], total: number | null): boolean {
  if (run.slice(1).some((p) => p.slash)) return true;
  if (run.some((p) => p.min !== null && p.min < (p.points ?? 0))) return true;
  if (run.some((p) => p.points === 0)) return true;
  // "4 points: ... / 3 points: ... / 2 points: ... / 1 point: ...": a full ladder down to one mark
  // is a teacher's levels; separate criteria are not written worth 4, 3, 2 and 1 in that order.
  if (run.length >= 3 && run.every((p, i) => p.points === run.length - i)) return true;
  const sum = run.reduce((s, p) => s + (p.points ?? 0), 0);
  if (total !== null && total === run[0]!.points && sum !== total) return true;
  return run.slice(1).every((p, i) => nested(run[i]!, p));
}

type Unit = { kind: 'levels'; pieces: Piece[] } | { kind: 'piece'; piece: Piece };

function groupLevels(pieces: Piece[], total: number | null): Unit[] {
  const out: Unit[] = [];
  let i = 0;
  while (i < pieces.length) {
    const p = pieces[i]!;
    if (p.label) {
      let j = i + 1;
      // "Full credit: X (2 marks). 1 mark: Y": marked lines worth less after a labelled level are its lower levels.
      const lower = (q: Piece, prev: Piece) => q.lead && q.points !== null && !q.each && (prev.points === null || q.points < prev.points);
      while (j < pieces.length && (pieces[j]!.label || lower(pieces[j]!, pieces[j - 1]!))) j++;
      out.push({ kind: 'levels', pieces: pieces.slice(i, j) });
      i = j;
      continue;
    }
    if (p.lead && p.points !== null && !p.each) {
      let j = i + 1;
      while (j < pieces.length && pieces[j]!.lead && pieces[j]!.points !== null && !pieces[j]!.each && pieces[j]!.points! < pieces[j - 1]!.points!) j++;
      const run = pieces.slice(i, j);
      if (run.length >= 2 && isLevelRun(run, total)) {
        out.push({ kind: 'levels', pieces: run });
        i = j;
        continue;
      }
    }
    out.push({ kind: 'piece', piece: p });
    i++;
  }
  return out;
}

function plural(n: number): string {
  return `${fmt(n)} mark${n === 1 ? '' : 's'}`;
}

export function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

function makeLevels(pieces: Piece[], total: number | null): Levels | null {
  const known = pieces.map((p) => p.points).filter((n): n is number => n !== null && n > 0);
  const ranked = pieces.map((p) => (p.label?.kind === 'level' ? p.label.rank : null)).filter((n): n is number => n !== null);
  const top = Math.max(total ?? 0, ...known, ...(known.length ? [] : ranked), 0);
  const levels: Level[] = [];
  for (const p of pieces) {
    if (p.points === 0 || p.label?.kind === 'zero') continue;
    let points = p.points;
    if (points === null) {
      const kind = p.label?.kind;
      if (kind === 'level' || kind === 'score') points = p.label!.rank ?? 1;
      // "Full credit for X" alone is one mark; beside other levels, one more than the best of them.
      else if (kind === 'full') points = total ?? (known.length ? Math.max(...known) + 1 : pieces.length > 1 ? 2 : 1);
      else points = (top || 2) / 2;
    }
    const min = p.min ?? points;
    const marks = min < points ? `${fmt(min)}-${plural(points)}` : plural(points);
    const label = p.label ? `${p.label.label} (${marks})` : marks;
    const named = NEEDS.exec(p.text) ?? NEEDS_ARTICLE.exec(p.text);
    const word = named?.[1]!.toLowerCase().replace(/^a\s+(?=range)/, '');
    const needs = word ? (WORD_COUNTS[word] ?? toNumber(word)) : 0;
    levels.push({ label, points, min, text: p.text, variants: [...new Set([...alternatives(p.text), ...p.accepts, ...p.examples])], rejects: p.rejects, needs, counted: needs > 0 });
  }
  if (!levels.length) return null;
  levels.sort((a, b) => b.points - a.points);
  levels.forEach((l, i) => (l.needs ||= levels.length - i));
  return { kind: 'levels', text: levels[0]!.text, points: levels[0]!.points, levels, guidance: [] };
}

const WORD_COUNTS: Record<string, number> = { a: 1, an: 1, both: 2, several: 3, many: 3, range: 3, most: 3 };
const COUNTED = String.raw`(?=\s+(?:or\s+more\s+)?(?:of\s+(?:the\s+)?)?(?:relevant\s+|different\s+|valid\s+|key\s+)?[a-z]+)`;
const NEEDS = new RegExp(String.raw`\b(${NUM}|both|several|many|most|a\s+range)\b${COUNTED}`, 'i');
const NEEDS_ARTICLE = new RegExp(String.raw`\b(an?)\b${COUNTED}`, 'i');
const COUNT_WORD = new RegExp(String.raw`\b(${NUM})\s+(?:different\s+|distinct\s+|separate\s+|correct\s+|valid\s+)?[a-z]`, 'i');
const OPTIONS_INTRO = new RegExp(String.raw`\b(?:any\s+(?:${NUM}\s+)?(?:of|from)|(?:one|each)\s+of)\s+(?:the\s+following\s*)?`, 'i');

function makePerItem(p: Piece, fallbackCap: number | null, listed: Concept[] = []): PerItem {
  const per = p.points ?? 1;
  let d = p.text.replace(/^(?:for\s+)?(?:each|every|per)\s+(?:of\s+)?/i, '').replace(/^for\s+/i, '');
  let cap = p.cap;
  const capped = capOf(d);
  if (capped) {
    d = capped.rest;
    cap ??= capped.items ? capped.cap * per : capped.cap;
  }
  const any = anyCount(d);
  let options: Concept[] = listed;
  let open = false;
  const colon = firstColon(d);
  const intro = OPTIONS_INTRO.exec(d);
  if (colon >= 0) {
    if (!options.length) options = listItems(d.slice(colon + 1)).map((t) => optionConcept(t, per));
    d = d.slice(0, colon);
  } else if (!options.length && intro) {
    options = listItems(d.slice(intro.index + intro[0].length)).map((t) => optionConcept(t, per));
    d = d.slice(0, intro.index);
  } else if (!options.length && p.examples.length) {
    options = p.examples.map((t) => optionConcept(t, per));
    open = true;
  } else if (!options.length && p.accepts.length) {
    // "1 point for each characteristic, up to 3 (accept: A, B, C)": what is accepted is listed.
    options = p.accepts.map((t) => optionConcept(t, per));
  } else if (!options.length && !p.lead) {
    // "names osmosis; names diffusion (1 mark each)", "osmosis, diffusion and active transport (1 mark each)": the list is the options.
    const semis = splitOutside(d, /^;\s*/);
    const listed = semis.length > 1 ? semis : listItems(d);
    if (listed.length > 1 && (semis.length > 1 || listed.every((t) => t.split(/\s+/).length <= 4))) {
      options = listed.map((t) => optionConcept(t, per));
      d = '';
    }
  }
  for (const o of options) o.rejects = [...o.rejects, ...p.rejects];
  const count = COUNT_WORD.exec(d);
  let points =
    cap ?? (any !== null ? any * per : null) ?? (options.length && !open ? options.length * per : null) ?? (count ? toNumber(count[1]) * per : null) ?? fallbackCap ?? per;
  if (options.length && !open) points = Math.min(points, options.length * per);
  const descriptor = d.replace(OPTIONS_INTRO, ' ').replace(/\s+/g, ' ').trim();
  const categoryText = descriptor.replace(COUNT_WORD, (m) => m.slice(-1));
  return {
    kind: 'each',
    text: p.text,
    points,
    per,
    options,
    open: open || !options.length,
    // Named options are checked by name; a category only matters for items the rubric does not list.
    category: open || !options.length ? categoryOf(categoryText) : null,
    contraries: open || !options.length ? contrariesOf(categoryWords(categoryText)) : NO_CONTRARIES,
    topic: descriptor,
    rejects: p.rejects,
  };
}

/** The piece a per-item criterion over a heading's list is read from: "Any two of: A, B, C". */
function listHost(intro: string, options: Concept[], per: number, cap: number): Piece {
  const names = options.slice(0, 6).map((o) => o.text).join(', ') + (options.length > 6 ? ', …' : '');
  return {
    kind: 'criterion', text: `${intro || 'any of'}: ${names}`, points: per, min: per, lead: false, label: null, each: true, cap, alternative: false,
    slash: false, line: 0, accepts: [], rejects: [], examples: [],
  };
}

function optionConcept(text: string, per: number): Concept {
  return { kind: 'concept', text, points: per, variants: alternatives(text), rejects: [] };
}

/** Splits n into k shares that add up to n exactly (two decimals). */
function shares(n: number, k: number): number[] {
  const each = Math.floor((n / k) * 100) / 100;
  const out = Array<number>(k).fill(each);
  out[k - 1] = Math.round((n - each * (k - 1)) * 100) / 100;
  return out;
}

function buildScope(heading: Heading | null, raw: Piece[], total: number | null, notes: string[], capped = false): Criterion[] {
  const pieces = joinNotes(raw);
  if (!pieces.length) return [];
  const unmarked = (p: Piece) => p.points === null && !p.label && !p.each;
  // "Any two of the following (1 mark each):" over a plain list: one criterion counting the options.
  if (heading?.options && pieces.every(unmarked)) {
    const per = heading.per ?? 1;
    const options = pieces.map((p) => concept(p, per));
    const cap = heading.cap ?? (heading.any !== null ? heading.any * per : null) ?? heading.points ?? options.length * per;
    return [makePerItem(listHost(heading.text, options, per, cap), null, options)];
  }
  // "For each of two processes: 1 mark for naming it and 1 mark for describing it": the marks are per thing.
  const times = heading ? new RegExp(String.raw`^(?:for\s+)?each\s+of\s+(?:the\s+)?(${NUM})\b`, 'i').exec(heading.text.replace(/^\s*(?:for\s+)?/i, 'for ')) : null;
  const perThing = times && pieces.some((p) => p.points !== null) ? toNumber(times[1]!) : 1;
  if (perThing > 1) {
    notes.push(`The rubric gives its marks for each of ${fmt(perThing)} things: each point is worth ${fmt(perThing)} times its marks, for the ${fmt(perThing)} together.`);
    pieces.forEach((p) => p.points !== null && (p.points *= perThing));
  }
  const units = groupLevels(pieces, total);
  const criteria: (Criterion | Piece)[] = units.map((u) => {
    // The scope's total is the levels' top only when the levels are all the scope holds.
    if (u.kind === 'levels') return makeLevels(u.pieces, units.length === 1 ? total : null) ?? u.pieces[0]!;
    if (u.piece.each) {
      const item = makePerItem(u.piece, total !== null && units.length === 1 ? total : null);
      // "A; B; C; D — 1 pt each (max 3 pts)": a cap written after the line caps its options too.
      if (capped && total !== null && units.length === 1 && item.points > total) item.points = total;
      return item;
    }
    if (u.piece.points !== null) return concept(u.piece, u.piece.points);
    return u.piece;
  });
  const isPiece = (c: Criterion | Piece): c is Piece => c.kind === 'criterion';
  const open = criteria.filter(isPiece);
  const fixedSum = criteria.reduce((s, c) => s + (isPiece(c) ? 0 : c.points), 0);
  let openPoints: number[] = open.map(() => 1);
  if (total !== null && open.length) {
    const left = Math.round((total - fixedSum) * 100) / 100;
    if (fixedSum === 0 && open.length > total && Number.isInteger(total) && total > 0) {
      notes.push(`The rubric gives ${plural(total)} for ${open.length} points: any ${fmt(total)} of them earn a mark each.`);
      const options = open.map((p) => concept(p, 1));
      return [...criteria.filter((c): c is Criterion => !isPiece(c)), makePerItem(listHost(`any ${fmt(total)} of`, options, 1, total), null, options)];
    }
    if (left > 0) {
      openPoints = shares(left, open.length);
      if (open.length > 1 && left !== open.length) notes.push(`The rubric's ${plural(left)} are split evenly over ${open.length} points without their own marks.`);
    } else notes.push(`The rubric's total (${fmt(total)}) is already given by its marked points; the others count 1 each.`);
  }
  let next = 0;
  const out = criteria.map((c) => (isPiece(c) ? concept(c, openPoints[next++]!) : c));
  const sum = out.reduce((s, c) => s + c.points, 0);
  // "A (1), B (1), C (1). Max 2": equal points capped below their sum — any of them up to the cap.
  const each = out[0]?.points ?? 0;
  if (capped && total !== null && sum > total && each > 0 && out.every((c) => c.kind === 'concept' && c.points === each) && total % each === 0) {
    notes.push(`The rubric caps its ${out.length} points at ${plural(total)}: any ${fmt(total / each)} of them earn their marks.`);
    return [makePerItem(listHost(`any ${fmt(total / each)} of`, out as Concept[], each, total), null, out as Concept[])];
  }
  if (total !== null && Math.abs(sum - total) > 0.001 && !notes.length) {
    notes.push(`The rubric states ${plural(total)} but its points add up to ${fmt(sum)}; the points are used.`);
  }
  return out;
}

/** Points or a total written anywhere in a rubric ("2 marks", "(1)", "[6]", "/2", "— 2 pts", "Level 3"). */
const WRITTEN_POINTS = new RegExp(String.raw`\d|\b${NUM}\s*(?:marks?|points?|pts?|credits?)\b|\b(?:level|band|score)\b|\bfull marks\b`, 'i');

export function readRubric(written: string): ReadRubric {
  const raw = rewriteLayouts(written);
  const entries = readEntries(raw);
  const scopes: { heading: Heading | null; pieces: Piece[] }[] = [{ heading: null, pieces: [] }];
  let declaredTotal: number | null = null;
  let capped = false;
  for (const e of entries) {
    if (e.kind === 'heading') scopes.push({ heading: e.heading, pieces: [] });
    else if (e.kind === 'total') {
      declaredTotal = e.n;
      capped = e.max;
    }
    else scopes[scopes.length - 1]!.pieces.push(e.piece);
  }
  const filled = scopes.filter((s) => s.pieces.some((p) => p.kind === 'criterion' || p.accepts.length));
  // A heading with nothing under it still gives the total ("Total: 4" written as "Marks: 4:").
  const headingPoints = scopes.map((s) => s.heading?.points).filter((n): n is number => typeof n === 'number');
  if (declaredTotal === null && headingPoints.length) declaredTotal = headingPoints.reduce((a, b) => a + b, 0);
  const notes: string[] = [];
  const built = filled.map((s) => {
    // "Award up to 3 marks:" over marked lines caps them as "Max 3" would.
    const headingCap = s.heading?.points == null ? (s.heading?.cap ?? null) : null;
    const total = s.heading?.points ?? headingCap ?? (filled.length === 1 ? declaredTotal : null);
    const cap = headingCap !== null || (capped && s.heading?.points == null && filled.length === 1);
    return { guidance: s.heading !== null && GUIDANCE.test(s.heading.text), criteria: buildScope(s.heading, s.pieces, total, notes, cap) };
  });
  // "Indicative content:" beside level descriptors says what the levels look for; it earns nothing itself.
  const levels = built.flatMap((b) => b.criteria.filter((c): c is Levels => c.kind === 'levels'));
  const guidance: Criterion[] = levels.length ? built.filter((b) => b.guidance).flatMap((b) => b.criteria.filter((c) => c.kind !== 'levels')) : [];
  if (guidance.length) {
    notes.push('The indicative content guides the levels and is not scored on its own.');
    const points = guidance.flatMap((c) => (c.kind === 'concept' ? [c] : c.kind === 'each' ? c.options : []));
    for (const l of levels) l.guidance = points;
  }
  const criteria = built.flatMap((b) => b.criteria).filter((c) => !guidance.includes(c));
  const usable = criteria.filter(hasWords);
  const totalRead = declaredTotal !== null || WRITTEN_POINTS.test(raw);
  // A total written in words or a layout the entries do not read still wins (totals.ts).
  const stated = capped ? null : (declaredTotal ?? writtenTotal(raw) ?? listedTotal(written));
  // A cap on the last line where no total is written: the criteria's marks beyond it cannot all be earned (tuned on F).
  // A "Max N" line over criteria of unequal marks (not read as any N of them) caps them too (tuned on I).
  const cap = stated === null ? (capped ? declaredTotal : writtenCap(raw)) : null;
  const sum = usable.reduce((s, c) => s + c.points, 0);
  const statedTotal = cap !== null && cap < sum ? cap : stated;
  return { criteria: usable, declaredTotal, notes, statedTotal, capTotal: statedTotal !== stated, totalRead: totalRead || statedTotal !== null };
}

function hasWords(c: Criterion): boolean {
  const texts = c.kind === 'concept' ? c.variants : c.kind === 'levels' ? c.levels.flatMap((l) => l.variants) : [c.topic, ...c.options.flatMap((o) => o.variants)];
  return texts.some((t) => /[a-z0-9]/i.test(t)) || (c.kind === 'each' && c.open);
}

/** A reference answer: each line (one line: each sentence) is a concept worth 1, unless it states points. */
export function readReference(raw: string): ReadRubric {
  let lines = rubricLines(raw);
  if (lines.length === 1) lines = splitOutside(lines[0]!, /^;\s*/);
  if (lines.length === 1) lines = lines[0]!.split(/(?<=[.!?])\s+(?=[A-Z])/).filter(Boolean);
  const criteria: Criterion[] = [];
  for (const line of lines) {
    const r = readReferenceLine(line);
    if (!/[a-z0-9]/i.test(r.text)) continue;
    criteria.push({ kind: 'concept', text: r.text, points: r.points, variants: [...new Set([...alternatives(r.text), ...r.accepts])], rejects: r.rejects });
  }
  return { criteria: criteria.filter(hasWords), declaredTotal: null, notes: [] };
}
