/**
 * Points markers of rubric text: "2 marks:", "1 point for", "+1", "[2]", "(2 marks)", "— 2 pts",
 * "(5-6 marks)", "(1 mark each)", level labels ("Level 3", "Full marks", "Partial") and caps
 * ("up to 3", "(max 2)"). Parsed by hand at a given position so that one marker is never read
 * twice and no pattern nests quantifiers (rubric text is any text up to 10,000 characters).
 */
import { HEADS } from './category.ts';

const WORD_NUMBERS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, half: 0.5, '½': 0.5,
};

export function toNumber(s: string): number {
  const t = s.trim().toLowerCase();
  return WORD_NUMBERS[t] ?? Number(t);
}

export const NUM = String.raw`(?:\d+(?:\.\d+)?|½|one|two|three|four|five|six|seven|eight|nine|ten)`;
const UNIT = String.raw`(?:\s*(?:marks?|points?|pts?|credits?)\b\.?|(?<=\d)[pm]\b)`;
const RANGE_TAIL = String.raw`(?:\s*(?:-|–|—|to)\s*(${NUM}))?`;

/** A points marker found at a position of a text. */
export interface Marker {
  start: number;
  end: number;
  /** `number`: a plain "2 for X" — read only where a criterion starts. */
  kind: 'bracket' | 'plus' | 'bare' | 'number';
  points: number;
  /** Bottom of a range ("5-6 marks" → 5); equals `points` otherwise. */
  min: number;
  /** "(1 mark each)", "2 marks each". */
  each: boolean;
  /** "(1 mark each, max 3)". */
  cap: number | null;
}

const BRACKET = new RegExp(
  String.raw`[(\[]\s*(?:worth\s+)?\+?\s*(${NUM})${RANGE_TAIL}(${UNIT})?(\s*each)?(?:\s*[,;]?\s*(?:max(?:imum)?\.?|up\s+to)\s*(?:of\s+)?(${NUM})${UNIT}?)?\s*(?:total\s*)?[)\]]`,
  'iy',
);
const PLUS = new RegExp(String.raw`\+\s?(\d+(?:\.\d+)?)(${UNIT})?(?![\w./^*])`, 'iy');
/** The end of a mathematical term ("2x", "x", "(a + b)"): a "+ 1" after it is arithmetic, not a mark. */
const TERM_END = /(?:\d[a-z]?|(?:^|[^a-z])[a-z]|\)|\^\S+|²|³)\s*$/i;
const BARE = new RegExp(String.raw`(${NUM}|an?)${RANGE_TAIL}(${UNIT})(\s+each)?`, 'iy');
const NUMBER_FOR = /(\d+(?:\.\d+)?)(?=\s+(?:for|if)\s)/y;

/** The marker that starts exactly at `at`, if any. */
export function markerAt(text: string, at: number): Marker | null {
  const prev = at > 0 ? text[at - 1] : ' ';
  for (const [kind, re] of [['bracket', BRACKET], ['plus', PLUS], ['bare', BARE]] as const) {
    if (kind !== 'bracket' && /[\w.+]/.test(prev)) continue;
    if (kind === 'plus' && TERM_END.test(text.slice(Math.max(0, at - 12), at))) continue;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) continue;
    if (kind === 'bare' && /^an?$/i.test(m[1]) && !/^\s*(?:mark|point|credit)\b/i.test(m[3])) continue;
    if (kind === 'bracket' && !m[3] && /^[a-z]/i.test(m[1])) continue; // "(one)" is a word, not points
    const hi = kind === 'plus' ? Number(m[1]) : toNumber(m[2] ?? m[1]);
    const lo = kind === 'plus' ? hi : toNumber(m[1]);
    if (!Number.isFinite(hi) || hi > 1000) continue;
    return {
      start: at,
      end: at + m[0].length,
      kind,
      points: Math.max(hi, lo),
      min: Math.min(hi, lo),
      each: kind !== 'plus' && Boolean(m[4]),
      cap: kind === 'bracket' && m[5] ? toNumber(m[5]) : null,
    };
  }
  if (/[\w.+]/.test(prev)) return null;
  NUMBER_FOR.lastIndex = at;
  const n = NUMBER_FOR.exec(text);
  if (n) return { start: at, end: at + n[0].length, kind: 'number', points: Number(n[1]), min: Number(n[1]), each: false, cap: null };
  return null;
}

/** Where a marker may start: the matcher confirms. */
// "½ mark": ½ is no word character, so no \b after it (tuned on D).
export const MARKER_START = new RegExp(String.raw`[(\[]|\+\s?\d|(?<![\w.])(?:${NUM}|an?)\b|(?<![\w.])½|\d+(?:\.\d+)?[pm]\b`, 'gi');

/** A level label at the start: "Level 3", "Band 2", "Full marks", "Partial credit", "No marks". */
export interface LevelLabel {
  end: number;
  /** `named`: "Excellent (4):", "Good – 3 marks:" (needs its marker); `score`: "Score 2:", "2-point response:" (its number is the points). */
  kind: 'level' | 'full' | 'partial' | 'half' | 'zero' | 'named' | 'score';
  rank: number | null;
  label: string;
}

const ROMAN: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4, v: 5, vi: 6 };
const LABEL = /(?:(level|band|tier)\s*(\d+|i{1,3}|iv|v|vi)\b|(full|maximum)\b(?:\s+(?:marks?|credit|points?|answer|score))?|(partial\b(?:\s+(?:marks?|credit|points?|answer))?|(?:part|some)\s+(?:marks?|credit))|(half)(?:\s+(?:marks?|credit|points?))|(no|zero|nil)(?:\s+(?:marks?|credit|points?))|(0)(?:\s*(?:marks?|points?|pts?)\b|(?=\s*[:\-–—]\s)))/iy;

/** "Score 3:", "3-point response:", and "2/3 —" (the mark out of the total, leading a descriptor). */
const SCORE_LABEL = /(?:score(?:\s+point)?|scale)\s*(\d+)\b|(\d+)[-\s]point\s+(?:response|answer)\b|(\d+)\s*\/\s*\d+(?=\s*[:\-–—])/iy;
const NAMED_LABEL =
  /(?:excellent|exemplary|outstanding|very\s+good|good|proficient|advanced|accomplished|competent|satisfactory|adequate|developing|emerging|beginning|fair|basic|limited|minimal|weak|poor|novice|inadequate|insufficient|(?:meets|exceeds|below|approaching)\s+(?:the\s+)?(?:expectations?|standards?))\b/iy;

export function levelLabelAt(text: string, at: number): LevelLabel | null {
  SCORE_LABEL.lastIndex = at;
  const score = SCORE_LABEL.exec(text);
  if (score) {
    const n = Number(score[1] ?? score[2] ?? score[3]);
    return { end: at + score[0].length, kind: n === 0 ? 'zero' : 'score', rank: n, label: score[0].trim() };
  }
  NAMED_LABEL.lastIndex = at;
  const named = NAMED_LABEL.exec(text);
  if (named) return { end: at + named[0].length, kind: 'named', rank: null, label: named[0].trim() };
  LABEL.lastIndex = at;
  const m = LABEL.exec(text);
  if (!m) return null;
  const label = m[0].trim();
  if (m[1]) {
    const r = m[2].toLowerCase();
    return { end: at + m[0].length, kind: 'level', rank: ROMAN[r] ?? Number(r), label };
  }
  const kind = m[3] ? 'full' : m[4] ? 'partial' : m[5] ? 'half' : 'zero';
  return { end: at + m[0].length, kind, rank: null, label };
}

const LEAD_VERB = /(?:award|give|allow|score|up\s+to)\s+/iy;
const SEPARATOR = /\s*(?:[:=\-–—]+|\bfor\b\s*:?|\bif\b|\bwhen\b)\s*/iy;

/** What a criterion's leading marker says. */
export interface Lead {
  marker: Marker | null;
  label: LevelLabel | null;
  /** "1 point each for", "2 marks per", "1 mark for each". */
  each: boolean;
  /** The criterion after the marker. */
  rest: string;
}

/**
 * A marker at the start of a criterion: "2 marks: X", "1 point for X", "Award 1 mark for X",
 * "+1 X", "[2] X", "Level 3 (5-6 marks): X", "Full marks: X", "1 mark per X", "1 point each for X".
 * A bare "2 marks" must be followed by ":" "-" "—" "=" "for" "if" "when" "each" or "per".
 */
export function leadMarker(text: string): Lead | null {
  const start = /^\s*/.exec(text)![0].length;
  LEAD_VERB.lastIndex = start;
  const verb = LEAD_VERB.exec(text);
  const afterVerb = verb ? start + verb[0].length : start;
  const label = levelLabelAt(text, start) ?? levelLabelAt(text, afterVerb);
  // "Score 2 marks if X" is a verb and a marker, not the label "Score 2".
  return (label && leadAfter(text, start, afterVerb, label)) || leadAfter(text, start, afterVerb, null);
}

function leadAfter(text: string, start: number, afterVerb: number, label: LevelLabel | null): Lead | null {
  let at = start;
  let marker: Marker | null = null;
  if (label) {
    at = label.end;
    const sep = /\s*[:\-–—,]?\s*/y;
    sep.lastIndex = at;
    const skip = sep.exec(text)![0].length;
    marker = markerAt(text, at + skip);
    if (marker) at = marker.end;
  } else {
    marker = markerAt(text, afterVerb);
    if (!marker) return null;
    at = marker.end;
  }
  let each = marker?.each ?? false;
  const eachWord = /\s*each\b/iy;
  eachWord.lastIndex = at;
  if (eachWord.exec(text)) {
    each = true;
    at = eachWord.lastIndex;
  }
  SEPARATOR.lastIndex = at;
  const sep = SEPARATOR.exec(text);
  const restRaw = text.slice(sep ? SEPARATOR.lastIndex : at);
  // "1 mark for each reason"; but "1 pt: for every action there is an equal and opposite reaction" is content.
  const counted = /^\s*(?:for\s+)?(?:each|every|per)\b(?:\s+(?:(?:correct|valid|relevant|accurate|different|distinct|separate|appropriate|additional|further|other|named|clear)\s+)*([a-z]+))?/i.exec(restRaw);
  const perNext = counted !== null && (!sep || !/[:\-–—=]/.test(sep[0]) || counted[1] === undefined || HEADS.has(counted[1].toLowerCase()) || counted[1].toLowerCase() === 'of');
  if (!sep && !perNext && !each) {
    // A label or a bracketed/plus marker needs no separator; a bare "2 marks" does.
    const bareOk = label ? /^\s*[:\-–—]/.test(text.slice(label.end)) || marker !== null : marker!.kind !== 'bare';
    if (!bareOk) return null;
  }
  if (label && !sep && !marker && !/^\s*[:\-–—]/.test(text.slice(label.end))) return null;
  if (label?.kind === 'named' && !marker) return null;
  const rest = restRaw.trim();
  if (!/[a-z0-9]/i.test(rest)) return null;
  return { marker, label, each: each || perNext, rest };
}

/** A marker at the end of a criterion: "X (2 marks)", "X [2]", "X — 2 pts", "X: 2 points", "X +1", "X (1 mark each)". */
export function trailMarker(text: string): { marker: Marker; rest: string } | null {
  const trimmed = text.replace(/[\s.;,]+$/, '');
  MARKER_START.lastIndex = 0;
  let found: { marker: Marker; rest: string } | null = null;
  for (let m = MARKER_START.exec(trimmed); m; m = MARKER_START.exec(trimmed)) {
    const marker = markerAt(trimmed, m.index);
    if (!marker || marker.end !== trimmed.length) continue;
    const before = trimmed.slice(0, m.index);
    if (!/[a-z0-9]/i.test(before)) continue;
    if (marker.kind === 'bare' && !/(?:[:=\-–—,(]|\bworth|\bfor)\s*$/i.test(before)) continue;
    found = { marker, rest: before.replace(/\s*(?:[:=\-–—,]+|\bworth|\bfor)\s*$/i, '').trim() };
    break;
  }
  return found;
}

/** A cap: "up to 3", "(max 2)", "to a maximum of 4 marks", "max. 3", "(3 max)". */
const CAP = new RegExp(
  String.raw`[,;]?\s*(?:\(\s*(?:max(?:imum)?\.?|up\s+to)\s*(?:of\s+)?(${NUM})${UNIT}?\s*(?:total\s*)?\)|\(\s*(${NUM})${UNIT}?\s+max(?:imum)?\.?\s*\)|\b(?:up\s+to(?:\s+a\s+max(?:imum)?\s+of)?|to\s+a\s+max(?:imum)?\s+of|max(?:imum)?\.?(?:\s+of)?|no\s+more\s+than|not\s+more\s+than|at\s+most)\s*(${NUM})${UNIT}?)`,
  'i',
);

export function capOf(text: string): { cap: number; items: boolean; rest: string } | null {
  const m = CAP.exec(text);
  if (!m) return null;
  const n = toNumber(m[1] ?? m[2] ?? m[3]);
  if (!Number.isFinite(n)) return null;
  // "up to 3 examples" caps items, "up to 3 (marks)" points.
  const after = text.slice(m.index + m[0].length);
  const items = !/(?:marks?|points?|pts?|credits?)\.?$/i.test(m[0]) && /^\s+(?!each\b|total\b|in\s+total\b|overall\b)[a-z]{3,}/i.test(after);
  return { cap: n, items, rest: (text.slice(0, m.index) + ' ' + text.slice(m.index + m[0].length)).replace(/\s+/g, ' ').trim() };
}

/** "any two of", "any 3 from". */
const ANY = new RegExp(String.raw`\bany\s+(${NUM})\s*(?:of|from)?\b`, 'i');

export function anyCount(text: string): number | null {
  const m = ANY.exec(text);
  return m ? toNumber(m[1]) : null;
}
