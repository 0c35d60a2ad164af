/**
 * Rubric text → lines → segments. Lines lose their list markers (bullets, "1." "1)" "(a)" "i.");
 * inline enumerations ("(1) X (2) Y", "a) X b) Y") become lines; a line holding only a label
 * ("Level 3 (5-6 marks):") is joined to the next. A line is cut into segments at every points
 * marker that starts a criterion ("1 point: X. 1 point: Y", "… / 2 marks: Y") or ends one
 * ("X (1), Y (2)", "X [2]; Y [1]").
 */
import { leadMarker, markerAt } from './markers.ts';

const ROMANS = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x'];
const LETTERS = 'abcdefghij'.split('');
const DIGITS = Array.from({ length: 20 }, (_, i) => String(i + 1));

function normalize(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(/[\u00a0\t\u2028\u2029]/g, (c) => (c === '\u2028' || c === '\u2029' ? '\n' : ' '))
    .replace(/[“”„]/g, '"')
    .replace(/[‘’`]/g, "'");
}

/** "(1) X (2) Y (3) Z" on one line → ["X", "Y", "Z"]; a line that is not such a sequence → [line]. */
function splitInlineEnumeration(line: string): string[] {
  for (const seq of [DIGITS, LETTERS, ROMANS]) {
    for (const style of [(k: string) => `(${k})`, (k: string) => `${k})`, (k: string) => `${k}.`]) {
      const first = style(seq[0]);
      if (!line.toLowerCase().startsWith(first) || !/\s/.test(line[first.length] ?? '')) continue;
      const starts: number[] = [0];
      let from = first.length;
      for (let k = 1; k < seq.length; k++) {
        const tok = ` ${style(seq[k])} `;
        const at = line.toLowerCase().indexOf(tok, from);
        if (at < 0) break;
        starts.push(at + 1);
        from = at + tok.length;
      }
      if (starts.length < 2) continue;
      return starts.map((s, i) => {
        const end = i + 1 < starts.length ? starts[i + 1] : line.length;
        return line.slice(s + style(seq[i]).length, end).trim();
      });
    }
  }
  return [line];
}

const BULLET = /^(?:[•·▪◦‣⁃✓✔☐□]+\s*|[-*–—>+]+\s+)/;
const ENUMERATOR = /^(?:\d{1,2}[.)]|[a-z][.)]|[ivx]{1,4}[.)]|\((?:[a-z]|[ivx]{1,4})\))\s+/i;
const PAREN_NUMBER = /^\((\d{1,2})\)\s+/;

const POINTS_CELL = /^[([]?\s*(\d+(?:\.\d+)?)(?:\s*(?:-|–|to)\s*(\d+(?:\.\d+)?))?\s*(?:marks?|points?|pts?)?\s*[)\]]?$/i;
const HEADER_CELL = /\b(?:criteri(?:on|a)|marks?|points?|score|descriptors?|level|band|grade|description|requirements?)\b/i;

/**
 * A table row pasted from a document ("| Names X | 1 |", "Level 3 | 5-6 | descriptor"): the
 * points cell moves to the end as "(N marks)", the other cells join with ": ". Separator and
 * header rows are dropped (null); a line that is not a table row (undefined) is left alone.
 */
function tableRow(line: string): string | null | undefined {
  if (!line.includes('|')) return undefined;
  const cells = line
    .replace(/^\s*\|/, '')
    .replace(/\|\s*$/, '')
    .split('|')
    .map((c) => c.trim());
  if (cells.length < 2) return undefined;
  if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === '')) return null;
  const at = cells.findIndex((c) => POINTS_CELL.test(c));
  if (at < 0) return cells.every((c) => c.split(/\s+/).length <= 3) && cells.some((c) => HEADER_CELL.test(c)) ? null : undefined;
  const m = POINTS_CELL.exec(cells[at]!)!;
  const text = cells.filter((c, i) => i !== at && c).join(': ');
  // "| Total | 6 |": the table's total, not a criterion.
  if (/^(?:total|total\s+(?:marks?|points?|score)|max(?:imum)?(?:\s+(?:marks?|points?))?)$/i.test(text)) return `Total: ${m[1]}`;
  return text ? `${text} (${m[2] ? `${m[1]}-${m[2]}` : m[1]} marks)` : null;
}

/** The rubric's lines without list markers. */
export function rubricLines(raw: string): string[] {
  let lines = normalize(raw)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    // "Names osmosis /2": points written as a fraction's denominator.
    .map((l) => l.replace(/^(.*\p{L}[^/\d]*?)\s+\/\s*(\d+(?:\.\d+)?)\s*$/u, '$1 ($2 marks)'))
    .map((l) => {
      const row = tableRow(l);
      return row === undefined ? l : row;
    })
    .filter((l): l is string => Boolean(l))
    .flatMap((l) => splitInlineEnumeration(l.replace(BULLET, '')))
    .map((l) => l.replace(BULLET, '').replace(ENUMERATOR, '').trim())
    .filter(Boolean);
  // "(1) X" "(2) Y" in sequence number the lines; a lone "(2) X" gives points.
  const numbered = lines.map((l) => PAREN_NUMBER.exec(l)?.[1]).filter((n): n is string => n !== undefined);
  if (numbered.length >= 2 && numbered.every((n, i) => Number(n) === i + 1)) lines = lines.map((l) => l.replace(PAREN_NUMBER, ''));
  // A line that is only a label or marker ("Level 3 (5-6 marks):", "2 marks -") describes the next line.
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (i + 1 < lines.length && /[:\-–—]\s*$/.test(l) && leadMarker(`${l} _`)?.rest === '_') {
      out.push(`${l} ${lines[i + 1]}`);
      i++;
    } else out.push(l);
  }
  return out;
}

/** A segment of a line; `slash` when it followed " / " (the "3 marks: X / 2 marks: Y" shorthand for levels). */
export interface Segment {
  text: string;
  slash: boolean;
}

const START = /[(\[]|\+\s?\d|(?<![\w.])(?:\d+(?:\.\d+)?|½|one|two|three|four|five|six|seven|eight|nine|ten|an?)\b|\b(?:level|band|tier|full|maximum|partial|part|some|half|no|zero|nil|award|give|allow|up\s+to)\b/gi;
const SEGMENT_END = /(?:[.;!?,/]|\band|&)\s*$/i;
const TRAIL_SEPARATOR = /(?:[:=\-–—,(]|\bworth|\bfor)\s*$/i;

/** Where `after` (the text following a marker) lets the marker end a criterion. */
function endsCriterion(after: string): boolean {
  if (/^\s*(?:$|[.;,!?/&[(]|and\b|then\b|or\b)/i.test(after)) return true;
  if (/^\s*[-–—]?\s*(?:(?:also\s+)?accept|allow|do\s+not|don't|reject|ignore|e\.g\.)/i.test(after)) return true;
  return leadMarker(after) !== null;
}

export function splitLine(line: string): Segment[] {
  // nextText[i]: the first letter or digit at or after i — "is there text between a and b" in O(1).
  const nextText = new Int32Array(line.length + 1).fill(line.length);
  for (let i = line.length - 1; i >= 0; i--) nextText[i] = /[a-z0-9]/i.test(line[i]!) ? i : nextText[i + 1]!;
  const textBetween = (a: number, b: number) => nextText[a]! < b;
  const cuts: Segment[] = [];
  const lineLed = leadMarker(line.slice(0, 200)) !== null;
  let cursor = 0;
  let slash = false;
  const cut = (at: number, nextSlash: boolean) => {
    const text = tidy(line.slice(cursor, at));
    if (text) cuts.push({ text, slash });
    cursor = at;
    slash = nextSlash;
  };
  START.lastIndex = 0;
  for (let m = START.exec(line); m; m = START.exec(line)) {
    const p = m.index;
    if (p < cursor) continue;
    if (!textBetween(cursor, p)) continue;
    const tail = line.slice(Math.max(cursor, p - 12), p);
    const mk = markerAt(line, p);
    // "X. (2 marks) Accept Y": a bracketed number after an unmarked sentence is that sentence's.
    const bracketAfterPlain = mk?.kind === 'bracket' && !leadMarker(line.slice(cursor, cursor + 200));
    // A line that opens with "1 point:" may run on to the next "1 point:" without a full stop.
    const runOn =
      lineLed && mk !== null && mk.kind !== 'number' && /^\s*[:\-–—]/.test(line.slice(mk.end, mk.end + 3)) && leadMarker(line.slice(cursor, p)) !== null;
    if ((SEGMENT_END.test(tail) || runOn) && !bracketAfterPlain && leadMarker(line.slice(p, p + 200))) {
      cut(p, /\/\s*$/.test(tail));
      continue;
    }
    if (!mk || mk.kind === 'number') continue;
    if (mk.kind === 'bare' && !TRAIL_SEPARATOR.test(tail)) continue;
    const after = line.slice(mk.end, mk.end + 200);
    // "keeps moving at constant velocity (1) unless a force acts (1)": a bracketed mark ends its point mid-sentence.
    if (!endsCriterion(after) && !(mk.kind === 'bracket' && /^\s+[a-z]/.test(after))) continue;
    const punct = /^\s*[.;,]?/.exec(after)![0].length;
    if (line.slice(mk.end + punct).trim()) cut(mk.end + punct, false);
    START.lastIndex = Math.max(START.lastIndex, mk.end);
  }
  cut(line.length, false);
  return cuts;
}

function tidy(s: string): string {
  return s
    .trim()
    .replace(/^(?:and\b|&|[,;/\-–—])\s*/i, '')
    .replace(/\s*(?:\band|&|[,;/])$/i, '')
    .trim();
}

/** Split at `sep` outside brackets and quotes. */
export function splitOutside(text: string, sep: RegExp): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === '"') quote = !quote;
    else if (depth === 0 && !quote) {
      const m = sep.exec(text.slice(i, i + 12));
      if (m && m.index === 0) {
        out.push(text.slice(from, i));
        from = i + m[0].length;
        i = from - 1;
      }
    }
  }
  out.push(text.slice(from));
  return out.map((s) => s.trim()).filter(Boolean);
}
