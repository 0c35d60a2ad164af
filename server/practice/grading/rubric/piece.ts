/**
 * One segment of a rubric line read as a piece: its points (leading or trailing marker), level
 * label, "each" counting, and its notes — accepted alternatives ("(accept: X)", "also accept X",
 * "X OR Y", "X / Y"), refused wordings ("do not accept X", "reject X", "(not X)") and examples
 * ("e.g. X, Y").
 */
import { leadMarker, type LevelLabel, markerAt, trailMarker } from './markers.ts';
import { criterionWords } from './match.ts';

const LABELLED = /^([^()[\]:]{1,60}?)\s*([([][^()[\]]{1,30}[)\]])\s*[:\-–—]\s+(.+)$/;
import { splitOutside } from './segment.ts';

export interface Piece {
  kind: 'criterion' | 'modifier' | 'or';
  /** The criterion without marker and notes. */
  text: string;
  points: number | null;
  min: number | null;
  /** The marker led the criterion ("2 marks: X"), as level descriptors are written. */
  lead: boolean;
  label: LevelLabel | null;
  each: boolean;
  cap: number | null;
  /** Written "or X" after a criterion: another way to meet it. */
  alternative: boolean;
  /** Followed " / " on its line ("3 marks: X / 2 marks: Y"). */
  slash: boolean;
  line: number;
  accepts: string[];
  rejects: string[];
  examples: string[];
}

const ACCEPT = String.raw`(?:also\s+)?(?:accept(?:ed)?|allow(?:ed)?)(?:\s+also)?|also\s+credit|credit\s+also`;
const REJECT_WORDS = String.raw`(?:do\s+not|don't|not\s+to)\s+(?:accept|allow|credit)|(?:do\s+not|don't)\s+award(?:\s+(?:the\s+|any\s+)?(?:marks?|credit|points?))?(?:\s+for)?|no\s+(?:marks?|credit)\s+for|not\s+accept(?:ed)?|reject(?:ed)?|but\s+not`;
const REJECT = String.raw`${REJECT_WORDS}|not`;
const EXAMPLE = String.raw`e\.?\s?g\.?|for\s+example|for\s+instance|such\s+as|i\.e\.`;
const IGNORE = String.raw`ignore`;
const NOTE_IN_BRACKETS = new RegExp(String.raw`[(\[]\s*(?:(${REJECT})|(${ACCEPT})|(or)|(${EXAMPLE})|(${IGNORE}))\b\s*:?\s*([^()\[\]]*)[)\]]`, 'gi');
const NOTE_TAIL = new RegExp(String.raw`(?:[.;,]\s*|\s+[-–—]\s+)(?=(?:but\s+)?(?:${REJECT_WORDS}|${ACCEPT}|${IGNORE}|alternatively)\b)`, 'i');
const EXAMPLE_TAIL = new RegExp(String.raw`[,;:]?\s*\b(?:e\.\s?g\.?|eg\.|for\s+example|for\s+instance)[:,]?\s+`, 'i');

const QUOTED_LIST = /^\s*(?:(["'])[^"']+\1\s*(?:(?:[,;/]|\bor\b|\band\b)\s*)*)+$/i;

const CONJUNCTION = /^\s+(?:or|and|OR)\s+/;

/**
 * "X, Y or Z" → [X, Y, Z]; "'paris, France' or 'Paris'" → the quoted items whole. A comma list
 * whose earlier items hold "and" ("economic problems and heavy taxation, ..., East and West")
 * keeps "and" inside its items, and " / " inside an item is that item's alternative ("light and
 * shade / chiaroscuro").
 */
export function listItems(text: string): string[] {
  if (QUOTED_LIST.test(text)) return [...text.matchAll(/(["'])([^"']+)\1/g)].map((m) => m[2]!.trim()).filter(Boolean);
  const commas = splitOutside(text, /^\s*[,;]\s*(?:(?:and|or)\s+)?/);
  const items =
    commas.length < 2
      ? splitOutside(text, /^(?:\s*\/\s*(?:(?:and|or)\s+)?|\s+(?:or|and|OR)\s+)/)
      : commas.slice(0, -1).some((c) => splitOutside(c, CONJUNCTION).length > 1)
        ? commas
        : [...commas.slice(0, -1), ...splitOutside(commas.at(-1)!, CONJUNCTION)];
  return items.map(unquote).filter((s) => /[a-z0-9]/i.test(s));
}

function unquote(s: string): string {
  return s
    .trim()
    .replace(/^["']+|["'.]+$/g, '')
    .replace(/^(?:the\s+word\s+)/i, '')
    .trim();
}

const SENTENCE_NOTE = new RegExp(String.raw`(?<=[.!?])\s+(?=(?:but\s+)?(?:${REJECT_WORDS}|${ACCEPT})\b)`, 'i');

/**
 * "Award 1 mark for each cause (max 3), e.g. A, B. Do not accept: C." — a note written as a
 * sentence of its own after the line's criteria: split off, so its colon does not read as the
 * line's heading, and read as a note on what comes before it.
 */
export function sentenceNotes(line: string): { main: string; notes: string[] } {
  const [main, ...notes] = line.split(SENTENCE_NOTE);
  return { main: main!, notes };
}

/** Note words at the start of a segment: the whole segment is a note on the criterion before it. */
const NOTE_START = new RegExp(String.raw`^(?:but\s+)?(?:(${REJECT_WORDS})|(${ACCEPT})|(${IGNORE}))\b\s*:?\s*`, 'i');

export function readPiece(raw: string, line: number, slash: boolean): Piece {
  const piece: Piece = { kind: 'criterion', text: '', points: null, min: null, lead: false, label: null, each: false, cap: null, alternative: false, slash, line, accepts: [], rejects: [], examples: [] };
  let text = raw.trim();
  if (/^(?:or|OR|alternatively)[.:]?$/.test(text)) return { ...piece, kind: 'or' };
  const remark = /^(?:notes?|nb|n\.b\.|examiner'?s?\s+(?:notes?|comments?)|comments?|guidance)\s*[:\-–—]\s*/i.exec(text);
  if (remark) {
    // "Note: accept X" reads as its notes; any other remark earns nothing.
    readNotes(splitNotes(text.slice(remark[0].length)), piece);
    return { ...piece, kind: 'modifier' };
  }
  if (NOTE_START.test(text) && !leadMarker(text)) {
    piece.kind = 'modifier';
    readNotes(splitNotes(text), piece);
    return piece;
  }
  const eg = /^(?:e\.?\s?g\.?|for\s+example|for\s+instance|such\s+as)[:,]?\s+/i.exec(text);
  if (eg) return { ...piece, kind: 'modifier', examples: listItems(text.slice(eg[0].length).replace(/[.;]\s*$/, '')) };
  if (/^(?:or|OR)\s+\S/.test(text)) {
    piece.alternative = true;
    text = text.replace(/^(?:or|OR)\s+/, '');
  }
  if (/^(?:NOT\b|not\s*:)/.test(text)) {
    // "NOT X" / "Not: X" as a note on the criterion before it ("Not soluble" alone is a criterion).
    return { ...piece, kind: 'modifier', rejects: listItems(text.replace(/^not\s*:?\s*/i, '').replace(/[.;]\s*$/, '')) };
  }
  text = takeBracketNotes(text, piece);
  // "(do not accept X)" on its own after a criterion's marker: a note on that criterion.
  if (!/[a-z0-9]/i.test(text)) return { ...piece, kind: 'modifier' };
  const lead = leadMarker(text);
  if (lead) {
    piece.lead = true;
    piece.label = lead.label;
    piece.each = lead.each;
    if (lead.marker) {
      piece.points = lead.marker.points;
      piece.min = lead.marker.min;
      piece.cap = lead.marker.cap;
    }
    text = lead.rest;
    if (lead.label?.kind === 'score' && !lead.marker) piece.points = piece.min = lead.label.rank;
    if (lead.label?.kind === 'zero') {
      piece.points = 0;
      piece.min = 0;
    }
    // "Level 3: X (5-6 marks)": the label first, its points at the end.
    const trail = piece.points === null ? trailMarker(text) : null;
    if (trail) {
      piece.points = trail.marker.points;
      piece.min = trail.marker.min;
      text = trail.rest;
    }
  } else {
    const trail = trailMarker(text);
    const labelled = trail ? null : LABELLED.exec(text);
    const inner = labelled ? markerAt(labelled[2]!, 0) : null;
    if (trail) {
      piece.points = trail.marker.points;
      piece.min = trail.marker.min;
      piece.each = trail.marker.each;
      piece.cap = trail.marker.cap;
      text = trail.rest;
    } else if (labelled && inner && inner.end === labelled[2]!.length) {
      // "Thesis (2 marks): clearly stated" — a short label, its points, then the criterion.
      piece.points = inner.points;
      piece.min = inner.min;
      text = `${labelled[1]}: ${labelled[3]}`;
    }
  }
  // Notes written after the criterion: "X; accept Y", "X. Do not accept Z.", "X, e.g. Y or Z".
  const [main, ...notes] = splitNotes(text);
  text = main!;
  readNotes(notes, piece);
  const tail = EXAMPLE_TAIL.exec(text);
  if (tail && tail.index > 0) {
    piece.examples.push(...listItems(text.slice(tail.index + tail[0].length).replace(/[.;]\s*$/, '')));
    text = text.slice(0, tail.index);
  }
  piece.text = dropFigureGlosses(text).replace(/\s+/g, ' ').replace(/^[\s:;,\-–—]+|[\s:;,]+$/g, '').replace(/\.$/, '').trim();
  return piece;
}

/** Content words outside a bracket for the bracket to be a gloss of a criterion that stands on its own. */
const GLOSSED_WORDS = 3;

/**
 * "temperatures are high all year (about 25–30 °C)", "showing it is neutral (pH 7)": a bracketed
 * figure illustrates the criterion and is not a word the answer must give. A bracket with "=" is
 * kept ("states the solution (x = 3)"), and so is one beside a criterion too short to stand alone.
 */
function dropFigureGlosses(text: string): string {
  return text.replace(/\s*\(([^()=]*\d[^()=]*)\)/g, (whole, inner: string, at: number) => {
    // Caps and points ("(max 2)", "(2 marks)") are read later, from the criterion's text.
    if (/\b(?:max(?:imum)?|up\s+to|total|marks?|points?|pts?|each)\b/i.test(inner)) return whole;
    const outside = text.slice(0, at) + text.slice(at + whole.length);
    return criterionWords(outside).length >= GLOSSED_WORDS ? '' : whole;
  });
}

/** Removes "(accept X)", "(not Y)", "(e.g. Z)" from `text` into the piece's notes. */
function takeBracketNotes(text: string, piece: Pick<Piece, 'accepts' | 'rejects' | 'examples'>): string {
  return text.replace(NOTE_IN_BRACKETS, (_m, rej, acc, or, eg, _ignore, body: string) => {
    const items = listItems(body);
    if (rej) piece.rejects.push(...items);
    else if (acc || or) piece.accepts.push(...items);
    else if (eg) piece.examples.push(...items);
    return ' ';
  });
}

/** A reference answer's line: only bracketed notes and a trailing points marker are read — its words are the answer's, never instructions. */
export function readReferenceLine(raw: string): { text: string; points: number; accepts: string[]; rejects: string[] } {
  const notes = { accepts: [] as string[], rejects: [] as string[], examples: [] as string[] };
  let text = takeBracketNotes(raw, notes).replace(/\s+/g, ' ').trim();
  const trail = trailMarker(text);
  if (trail) text = trail.rest;
  return { text: text.replace(/[.;]$/, '').trim(), points: trail?.marker.points ?? 1, accepts: [...notes.accepts, ...notes.examples], rejects: notes.rejects };
}

function readNotes(notes: string[], piece: Piece): void {
  for (const n of notes) {
    const m = NOTE_START.exec(n);
    if (!m) continue;
    const items = listItems(n.slice(m[0].length).replace(/[.;]\s*$/, ''));
    if (m[1]) piece.rejects.push(...items);
    else if (m[2]) piece.accepts.push(...items);
  }
}

function splitNotes(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  for (let i = 0; i < 8; i++) {
    const m = NOTE_TAIL.exec(rest);
    if (!m || m.index === 0) break;
    out.push(rest.slice(0, m.index));
    rest = rest.slice(m.index + m[0].length);
  }
  out.push(rest);
  return out;
}
