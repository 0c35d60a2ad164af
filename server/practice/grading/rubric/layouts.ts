/**
 * Rubric layouts rewritten, before they are read, into the shapes parse.ts reads: each rewrite is
 * a general layout teachers write (tuned on main, A, B, C; see rules.ts, "rubric total layouts"),
 * never a wording of one rubric.
 *
 * - Analytic grids: a table whose header names marks per column (`| Criterion | 2 marks | 1 mark |
 *   0 marks |`) → one line of levels per row ("2 marks: Row cell / 1 mark: Row cell").
 * - Records: `- criterion: X` over an indented `points: 2` → "X (2 marks)".
 * - Labelled strands: `Knowledge: 1 mark — X` → "1 mark — X" (the strand's name is not content).
 * - A sum of marks: `Marks: 1 + 1 + 2` → "Total: 4".
 * - A per-line note: `(1 mark per ✓)`, `(2 marks each)` alone on a line → each unmarked line is
 *   worth that.
 * - A prose rubric opening or closing with "Up to 3 marks." / "Maximum 3 marks." → its total on a
 *   line of its own.
 * - Tuned on set D too (rules.ts, "more total layouts"): a markdown heading is a title (`###
 *   Criteria (6 marks)` → its total); `Points: 2` on the line after an unmarked criterion; marks at
 *   the end of a line after `= `, a dot leader (`…… 1`) or a column of spaces, on most lines (a
 *   `TOTAL` line so written is the total, a `Marks` column header is dropped); a symbol key (`(★ =
 *   1 mark)`) over lines marked with that symbol; `N marks available` / `Marks available: N` and a
 *   bracketed `(Maximum 4: …)` as caps (`Max N`); `(1) (x2)` as one mark each up to two; `— 1 mark
 *   each` after an inline enumeration `(i) … (ii) …` as each item's; letter descriptors `A (3
 *   marks): … B (2 marks): …` as levels; `→ 1 mark` arrows; a label before its marks
 *   (`Position (1 mark): X`, `AO1 (2): X`) as "X (1 mark)".
 */
import { leadMarker, NUM, toNumber, trailMarker } from './markers.ts';
import { markup } from './totals.ts';

const UNIT = String.raw`(?:marks?|points?|pts?)`;

const SEPARATOR_ROW = /^\s*\|?(?:\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*$/;
const MARKS_CELL = new RegExp(String.raw`^(${NUM})\s*${UNIT}$`, 'i');

function cells(line: string): string[] {
  return line.replace(/^\s*\|/, '').replace(/\|\s*$/, '').split('|').map((c) => c.trim());
}

/** "none", "-", "" in a grid's cell: no descriptor at that mark. */
const EMPTY_CELL = /^(?:|-+|–|—|none|n\/a|nothing|no\s+(?:attempt|answer|response))\.?$/i;

/**
 * An analytic grid: the header's cells after the first are all marks ("2 marks", "1 mark", "0
 * marks"), each row a criterion with a descriptor per mark. Each row becomes one line of levels
 * written with " / " (parse.ts reads it as one levels criterion worth its top mark).
 */
function grid(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const head = line.includes('|') ? cells(line) : [];
    const marks = head.slice(1).map((c) => MARKS_CELL.exec(c));
    const levelled = levelTable(head, lines, i + 1);
    if (levelled) {
      out.push(...levelled.lines);
      i = levelled.end - 1;
      continue;
    }
    if (head.length < 3 || !marks.every(Boolean)) {
      out.push(line);
      continue;
    }
    const points = marks.map((m) => toNumber(m![1]!));
    let j = i + 1;
    for (; j < lines.length && lines[j]!.includes('|'); j++) {
      if (SEPARATOR_ROW.test(lines[j]!)) continue;
      const row = cells(lines[j]!);
      const name = row[0] ?? '';
      const levels = points
        .map((p, k) => ({ p, text: row[k + 1] ?? '' }))
        .filter((l) => l.p > 0 && !EMPTY_CELL.test(l.text))
        .sort((a, b) => b.p - a.p)
        .map((l) => `${l.p} mark${l.p === 1 ? '' : 's'}: ${name ? `${name}: ` : ''}${l.text}`);
      if (levels.length) out.push(levels.join(' / '));
    }
    i = j - 1;
  }
  return out;
}

const LEVEL_HEADER = /^(?:level|band|grade|tier)$/i;
const MARKS_HEADER = /^(?:marks?|points?|score|mark\s+range)$/i;

/**
 * `| Level | Marks | Descriptor |` tables: each row "Level 3 (5–6 marks): descriptor", as parse.ts
 * reads labelled levels (the level's number is a rank, the marks column its points). A row of 0
 * marks is the level below the lowest and earns nothing.
 */
function levelTable(head: string[], lines: string[], from: number): { lines: string[]; end: number } | null {
  const lv = head.findIndex((c) => LEVEL_HEADER.test(c));
  const mk = head.findIndex((c) => MARKS_HEADER.test(c));
  if (lv < 0 || mk < 0 || head.length < 3) return null;
  const out: string[] = [];
  let j = from;
  for (; j < lines.length && lines[j]!.includes('|'); j++) {
    if (SEPARATOR_ROW.test(lines[j]!)) continue;
    const row = cells(lines[j]!);
    const marks = (row[mk] ?? '').replace(/\s*(?:marks?|points?|pts?)\s*$/i, '');
    if (!/^\d+(?:\.\d+)?(?:\s*[-–]\s*\d+(?:\.\d+)?)?$/.test(marks) || /^0(?:\s*[-–]\s*0)?$/.test(marks)) continue;
    const text = row.filter((c, k) => k !== lv && k !== mk && c).join(': ');
    const label = /^\d+$/.test(row[lv] ?? '') ? `Level ${row[lv]}` : row[lv] || 'Level';
    out.push(`${label} (${marks} marks): ${text}`);
  }
  return out.length ? { lines: out, end: j } : null;
}

// Keys and values separated by ":" or, as in INI files, "=" (tuned on H).
const RECORD_KEY = /^(\s*(?:[-*•]\s*)?)(?:criterion|criteria|description|descriptor|item|point|requirement|text)\s*[:=]\s*/i;
const RECORD_POINTS = new RegExp(String.raw`^(\s*)(?:[-*]\s*)?(?:points?|marks?|pts|score|weight)\s*[:=]\s*(${NUM})\s*$`, 'i');
/** "[criterion 1]" alone on a line: an INI section's name, over its record. */
const SECTION = /^\s*\[[^\]]*[a-z][^\]]*\]\s*$/i;

/** `- criterion: X` / `  points: 2` records → "- X (2 marks)"; `[section]` names over records dropped. */
function records(lines: string[]): string[] {
  const out: string[] = [];
  for (const [i, line] of lines.entries()) {
    const next = lines.slice(i + 1).find((l) => l.trim());
    if (SECTION.test(line) && next !== undefined && RECORD_KEY.test(next)) continue;
    const pts = RECORD_POINTS.exec(line);
    const prev = out[out.length - 1];
    // Indented under its criterion, or under a line written as a record: the previous line's points.
    if (pts && prev !== undefined && (pts[1]!.length > 0 || RECORD_KEY.test(prev)) && /[a-z]/i.test(prev)) {
      out[out.length - 1] = `${prev.replace(/[\s.;,]+$/, '')} (${pts[2]} marks)`;
      continue;
    }
    out.push(line);
  }
  return out.map((l) => l.replace(RECORD_KEY, '$1'));
}

const NOT_STRAND = /^(?:total|max(?:imum)?|full|partial|half|no|zero|marks?|points?|level|band|score|award|note|accept|reject|q|question|part)\b/i;
const STRAND = new RegExp(String.raw`^(\s*(?:[-*•]\s*)?)([A-Z][A-Za-z'’-]+(?:\s+[A-Za-z'’-]+){0,2})\s*:\s*(?=${NUM}\s*${UNIT}\s*[—–-]\s*\S)`);

/** `Knowledge: 1 mark — defines X` → "1 mark — defines X". */
function strands(lines: string[]): string[] {
  return lines.map((l) => {
    const m = STRAND.exec(l);
    return m && !NOT_STRAND.test(m[2]!) ? m[1]! + l.slice(m[0].length) : l;
  });
}

const MARKS_SUM = new RegExp(String.raw`^\s*(?:marks?|points?|${UNIT}\s+split)\s*[:=]?\s*(\d+(?:\s*\+\s*\d+)+)\s*(?:${UNIT})?\.?\s*$`, 'i');

/** `Marks: 1 + 1 + 2` → "Total: 4". */
function sums(lines: string[]): string[] {
  return lines.map((l) => {
    const m = MARKS_SUM.exec(l);
    return m ? `Total: ${m[1]!.split('+').reduce((s, n) => s + Number(n), 0)}` : l;
  });
}

const PER_LINE = new RegExp(
  String.raw`^\s*[(\[]?\s*(${NUM}|a|an)\s*${UNIT}\s+(?:each|per\s+(?:\S{1,2}|tick|line|bullet|point|statement)|for\s+each\s+(?:\S{1,2}|tick|line|bullet|point|statement))\s*[)\]]?\.?\s*$`,
  'i',
);

/** `(1 mark per ✓)` alone on a line: not a criterion; each unmarked line is worth that. */
function perLine(lines: string[]): string[] {
  const at = lines.findIndex((l) => PER_LINE.test(l));
  if (at < 0 || lines.filter((l) => PER_LINE.test(l)).length > 1) return lines;
  const n = toNumber(PER_LINE.exec(lines[at]!)![1]!.replace(/^an?$/i, 'one'));
  const rest = lines.filter((_, i) => i !== at);
  if (n === 1) return rest;
  return rest.map((l) => (/[a-z]/i.test(l) && !leadMarker(l) && !trailMarker(l) ? `${l.replace(/[\s.;,]+$/, '')} (${n} marks)` : l));
}

const PROSE_TOTAL_HEAD = new RegExp(String.raw`^\s*(?:up\s+to|max(?:imum)?(?:\s+of)?)\s+(${NUM})\s*${UNIT}\.\s+(?=\S)`, 'i');
const PROSE_TOTAL_TAIL = new RegExp(String.raw`(?<=[.!?])\s+(?:up\s+to|max(?:imum)?(?:\s+of)?)\s+(${NUM})\s*${UNIT}\.?\s*$`, 'i');

/** "Up to 3 marks. A full answer says …" → "Total: 3" over the prose. */
function proseTotals(lines: string[]): string[] {
  return lines.flatMap((l) => {
    const head = PROSE_TOTAL_HEAD.exec(l);
    if (head) return [`Total: ${toNumber(head[1]!)}`, l.slice(head[0].length)];
    const tail = PROSE_TOTAL_TAIL.exec(l);
    if (tail) return [l.slice(0, tail.index), `Total: ${toNumber(tail[1]!)}`];
    return [l];
  });
}

const MD_HEADING = /^\s*#{1,6}\s+(?=\S)/;
const BRACKET_MARKS = new RegExp(String.raw`[(\[]\s*(${NUM})\s*${UNIT}\s*[)\]]\s*:?\s*$`, 'i');

/** `### Criteria (6 marks)` → "Total: 6"; `### Criteria` → "Criteria:" (a title, not a criterion). */
function markdownHeadings(lines: string[]): string[] {
  return lines.map((l) => {
    if (!MD_HEADING.test(l)) return l;
    const title = l.replace(MD_HEADING, '').trim();
    const marks = BRACKET_MARKS.exec(title);
    if (marks) return `Total: ${toNumber(marks[1]!)}`;
    return /:$/.test(title) ? title : `${title}:`;
  });
}

// Also a definition list's ": 1 mark" (tuned on H).
const NEXT_POINTS = new RegExp(String.raw`^\s*(?:(?:points?|marks?|pts)\s*:\s*(${NUM})|:\s*(${NUM})\s*${UNIT})\s*$`, 'i');

/**
 * `Points: 2` alone on the line after an unmarked criterion, more than once: that criterion's
 * points (once, it may be the total: "Marks: 4" under a prose rubric).
 */
function nextLinePoints(lines: string[]): string[] {
  const at = lines.map((l, i) => i > 0 && NEXT_POINTS.test(l) && /[a-z]/i.test(lines[i - 1]!) && !NEXT_POINTS.test(lines[i - 1]!) && !leadMarker(lines[i - 1]!) && !trailMarker(lines[i - 1]!));
  if (at.filter(Boolean).length < 2) return lines;
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (at[i]) {
      const m = NEXT_POINTS.exec(l)!;
      out[out.length - 1] = `${out[out.length - 1]!.replace(/[\s.;,]+$/, '')} (${m[1] ?? m[2]} marks)`;
    }
    else out.push(l);
  });
  return out;
}

/** "X = 1", "X ........ 1", "X      1": marks at the end of a line after `=`, a dot leader or a column of spaces. */
const END_MARK = /^(\s*\S.*?[a-z)\]'"’.]*?)(?:\s+=\s*|\s*(?:\.{3,}|…{2,})\s*|\s{3,})(\d+(?:\.\d+)?|½)\s*$/i;
const TOTAL_WORD = /^\s*(?:total|max(?:imum)?)\b/i;
const MARKS_COLUMN = /\s{3,}(?:marks?|points?|pts|score)\s*$/i;

/**
 * Marks written at the end of most lines after `= `, a dot leader or spaces → "X (1 mark)"; such a
 * `TOTAL` line → "Total: N"; a header ending in a `Marks` column is dropped. Only when at least two
 * lines are so written and they are most of the rubric's lines (a single "x = 2" is arithmetic).
 */
function endMarks(lines: string[]): string[] {
  const text = lines.filter((l) => /[a-z]/i.test(l) && !MARKS_COLUMN.test(l));
  const marked = text.filter((l) => END_MARK.test(l) && /[a-z]{2}/i.test(END_MARK.exec(l)![1]!) && !/[=<>]\s*\S*\s*[=]?\s*$/.test(END_MARK.exec(l)![1]!));
  if (marked.length < 2 || marked.length * 2 < text.length) return lines;
  return lines.flatMap((l) => {
    if (MARKS_COLUMN.test(l) && !END_MARK.test(l)) return [];
    const m = END_MARK.exec(l);
    if (!m || !/[a-z]{2}/i.test(m[1]!)) return [l];
    const n = toNumber(m[2]!);
    if (TOTAL_WORD.test(m[1]!)) return [`Total: ${n}`];
    return [`${m[1]!.replace(/[\s.;,]+$/, '')} (${m[2]} mark${n === 1 ? '' : 's'})`];
  });
}

const SYMBOL_KEY = new RegExp(String.raw`^\s*[(\[]?\s*([★☆✓✔✅⭐●•*])\s*=\s*(${NUM})\s*${UNIT}\s*[)\]]?\.?\s*$`, 'iu');

/** `(★ = 1 mark)` under lines marked ★ (★★ = two): each such line worth that many, the key not a criterion. */
function symbolKey(lines: string[]): string[] {
  const keyAt = lines.findIndex((l) => SYMBOL_KEY.test(l));
  if (keyAt < 0) return lines;
  const [, symbol, value] = SYMBOL_KEY.exec(lines[keyAt]!)!;
  const per = toNumber(value!);
  const lead = new RegExp(String.raw`^(\s*)((?:${symbol!.replace(/[*]/g, '\\*')}\s*)+)`, 'u');
  return lines.flatMap((l, i) => {
    if (i === keyAt) return [];
    const m = lead.exec(l);
    if (!m) return [l];
    const count = [...m[2]!.replace(/\s/g, '')].length;
    const n = count * per;
    return [`${m[1]}${l.slice(m[0].length).replace(/[\s.;,]+$/, '')} (${n} mark${n === 1 ? '' : 's'})`];
  });
}

const AVAILABLE = new RegExp(String.raw`^\s*(?:(${NUM})\s*${UNIT}\s+available|${UNIT}\s+available\s*[:=]?\s*(${NUM}))\.?\s*$`, 'i');
const BRACKET_CAP = new RegExp(String.raw`^\s*[(\[]\s*max(?:imum)?\s*(?:of\s+)?(${NUM})\s*${UNIT}?\s*[:;,—–-]\s*[^()\[\]]*[)\]]\.?\s*$`, 'i');

/** "3 marks available." / "Marks available: 4" / "(Maximum 4: any two …)" → "Max 4": what can be earned, at most. */
function available(lines: string[]): string[] {
  return lines.map((l) => {
    const a = AVAILABLE.exec(l);
    if (a) return `Max ${toNumber(a[1] ?? a[2]!)}`;
    const c = BRACKET_CAP.exec(l);
    return c ? `Max ${toNumber(c[1]!)}` : l;
  });
}

const TIMES = new RegExp(String.raw`\(\s*(${NUM})\s*${UNIT}?\s*\)\s*\(\s*[x×]\s*(\d+)\s*\)\s*$`, 'i');

/** "Sign of a stroke (1) (x2)": one mark each for up to two. */
function times(lines: string[]): string[] {
  return lines.map((l) => {
    const m = TIMES.exec(l);
    if (!m) return l;
    const per = toNumber(m[1]!);
    return `${l.slice(0, m.index).replace(/[\s.;,]+$/, '')} (${m[1]} mark${per === 1 ? '' : 's'} each, max ${per * Number(m[2])})`;
  });
}

const ENUMERATOR = /[([](?:[ivx]{1,4}|[a-h]|\d{1,2})[)\]]\s+/gi;
const LABEL = String.raw`(?:[a-h]|[ivx]{1,4}|\d{1,2})`;
const EACH_TAIL = new RegExp(String.raw`\s*[—–-]+\s*(?:(?:${LABEL}(?:\s*,\s*|\s+and\s+))+${LABEL}\s+)?(${NUM})\s*${UNIT}\s+each\b[.;]?(.*)$`, 'i');

/**
 * "(i) adverb (ii) noun (iii) verb — 1 mark each": the marks are each item's. Also (tuned on I)
 * "[a] … [b] …" labels, a heading ending in a colon before them, the labels named again before the
 * marks ("— a, b and c one mark each") and a remark after them ("; …"), which is a note.
 */
function enumeratedEach(lines: string[]): string[] {
  return lines.flatMap((l) => {
    const tail = EACH_TAIL.exec(l);
    if (!tail) return [l];
    const body = l.slice(0, tail.index);
    const starts = [...body.matchAll(ENUMERATOR)].map((m) => m.index);
    const head = body.slice(0, starts[0]).trim();
    if (starts.length < 2 || (head && !head.endsWith(':'))) return [l];
    const n = toNumber(tail[1]!);
    const unit = `(${tail[1]} mark${n === 1 ? '' : 's'})`;
    const items = starts.map((s, k) => `${body.slice(s, starts[k + 1] ?? body.length).trim()} ${unit}`).join(' ');
    return tail[2]!.trim() ? [items, `Note: ${tail[2]!.trim()}`] : [items];
  });
}

const ARROW_MARKS = new RegExp(String.raw`\s*(?:→|->|=>|⇒)\s*(${NUM})\s*${UNIT}\.?\s*$`, 'i');

/** "X → 1 mark": marks after an arrow are the line's. */
function arrowMarks(lines: string[]): string[] {
  return lines.map((l) => {
    const m = ARROW_MARKS.exec(l);
    if (!m || !/[a-z]/i.test(l.slice(0, m.index))) return l;
    const n = toNumber(m[1]!);
    return `${l.slice(0, m.index)} (${m[1]} mark${n === 1 ? '' : 's'})`;
  });
}

const QUALITY_LABEL = /^(?:excellent|outstanding|exemplary|very\s+good|good|strong|secure|proficient|competent|satisfactory|adequate|fair|developing|emerging|basic|limited|weak|poor|inadequate)\b/i;
const LABELLED = new RegExp(String.raw`^(\s*(?:[-*•]\s*)?)([A-Z][A-Za-z0-9'’-]*(?:\s+[A-Za-z'’-]+){0,2})\s*[(\[]\s*(${NUM})\s*${UNIT}?\s*[)\]]\s*:\s*(?=\S)`);

/**
 * "Position (1 mark): states a view", "AO2 (2): explains …": the label names the criterion's
 * part, not what the answer must say → "states a view (1 mark)". Levels, bands, credits and
 * question numbers keep their label (NOT_STRAND).
 */
function labelled(lines: string[]): string[] {
  const hits = lines.map((l) => LABELLED.exec(l));
  const marks = hits.filter(Boolean).map((m) => toNumber(m![3]!));
  // "Excellent (4): … Good (3): … Fair (2): …": falling marks under quality words are levels.
  if (marks.length >= 2 && marks.every((n, i) => i === 0 || n < marks[i - 1]!)) return lines;
  return lines.map((l, i) => {
    const m = hits[i];
    if (!m || NOT_STRAND.test(m[2]!) || QUALITY_LABEL.test(m[2]!) || /^[A-F]$/.test(m[2]!)) return l;
    const n = toNumber(m[3]!);
    return `${m[1]}${l.slice(m[0].length).replace(/[\s.;,]+$/, '')} (${m[3]} mark${n === 1 ? '' : 's'})`;
  });
}

const LETTER_LEVEL = new RegExp(String.raw`^(\s*)([A-F])\s*[(\[]\s*(${NUM})\s*${UNIT}\s*[)\]]\s*:\s*(?=\S)`);

/** "A (3 marks): … / B (2 marks): … / C (1 mark): …": letter grades are levels, falling marks. */
function letterLevels(lines: string[]): string[] {
  const hits = lines.map((l) => LETTER_LEVEL.exec(l));
  const marks = hits.filter(Boolean).map((m) => toNumber(m![3]!));
  if (marks.length < 2 || !marks.every((n, i) => i === 0 || n < marks[i - 1]!)) return lines;
  return lines.map((l, i) => {
    const m = hits[i];
    if (m) return `${m[1]}${m[3]} mark${toNumber(m[3]!) === 1 ? '' : 's'}: ${l.slice(m[0].length)}`;
    // "0: nothing relevant" under them: the level that earns nothing.
    return /^\s*0\s*:/.test(l) ? l.replace(/^(\s*)0\s*:/, '$10 marks:') : l;
  });
}

/** The rubric with these layouts rewritten; any other text unchanged. */
export function rewriteLayouts(raw: string): string {
  let lines = markup(raw.replace(/\r\n?/g, '\n').split('\n'));
  lines = labelled(arrowMarks(letterLevels(enumeratedEach(times(available(symbolKey(endMarks(nextLinePoints(markdownHeadings(lines))))))))));
  return proseTotals(perLine(sums(strands(records(grid(lines)))))).join('\n');
}
