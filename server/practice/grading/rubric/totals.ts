/**
 * A rubric's total by a general principle rather than by layout (tuned on E): a total written
 * anywhere wins — a line or phrase that states a total, a maximum to start from, marks "available"
 * or "in all", in digits or words, in the languages the grader reads (English, French, Spanish,
 * German, Italian) — else the marks the criteria carry add up (the layout readers). A cap ("max 3")
 * is no total: it is read where the criteria are.
 *
 * markup() rewrites the marks of HTML/XML tags, braces, "(1+1)" sums and a comma column as the
 * bracketed marks the layout readers know, so each criterion line carries one mark figure.
 */
import { NUM, toNumber } from './markers.ts';
import { TOTALS } from '../thresholds.ts';

const UNIT = String.raw`(?:marks?|mks?|points?|pts?|puntos?|punti|punto|punkte?|punten|punt|pontos?|p\.|credits?)`;
/** Words that say "total" or "available", in the languages read. */
const TOTAL_WORD = String.raw`(?:total|totale|insgesamt|gesamt(?:punktzahl)?|marks\s+available|available\s+marks|(?:marks|points)\s+possible|possible\s+(?:marks|points)|out\s+of|en\s+total|in\s+totale)`;

const WRITTEN_TOTALS: RegExp[] = [
  // "total 4 marks", "(total 4)", "Total: 5 marks", "total,4", "Total<TAB>4", "<total>3</total>", "insgesamt 3 Punkte", "Marks available: 4".
  // (Not the "total" of "5 marks in total: 1 for each point", whose number comes before it; tuned on G.)
  // "Total /5", "Points possible: 6": a slash before the number, "possible" as "available" (tuned on H).
  new RegExp(String.raw`(?<!${NUM}\s*${UNIT}\s+in\s+)\b${TOTAL_WORD}\b[\s:=,>|(\-–—/]{0,3}(?:${UNIT}[\s:=]{0,3})?(${NUM})(?![\d.,]\d)(?!\d*\s*(?:[π√²³]|[a-zµ]{1,3}[²³]))`, 'i'),
  // "This question is worth five marks": what the question (not a criterion: "— worth two marks") is worth is its total (tuned on H).
  new RegExp(String.raw`\b(?:question|task|this|it)\s+(?:is\s+)?worth\s+(?:a\s+total\s+of\s+)?(${NUM})\s*${UNIT}`, 'i'),
  // "Four marks in all", "3 marks available", "6 points in total", "4 puntos en total".
  new RegExp(String.raw`\b(${NUM})\s*${UNIT}\s+(?:in\s+all|in\s+total|in\s+totale|en\s+total|insgesamt|total|overall|available|altogether)\b`, 'i'),
  // "Start at 4 marks and deduct …": the mark a deduction scheme starts from is its maximum.
  new RegExp(String.raw`\b(?:start|begin)(?:ning|ing)?\s+(?:at|from|with)\s+(${NUM})\s*${UNIT}`, 'i'),
  // A heading line "Criterios de corrección (4 puntos):", "Barème (4 points) :", "Griglia di valutazione (3 punti):".
  new RegExp(String.raw`^[^\d\n()]*\(\s*(${NUM})\s*${UNIT}\s*\)\s*:\s*$`, 'im'),
  // The first line a title with its marks, over listed criteria: "Beoordeling (3 punten)" above "• …" lines (tuned on F).
  // A title of at most three words, no list marker of its own: a criterion with its marks is no title.
  new RegExp(String.raw`^\s*(?![-•*–]|\d+[.)])[^\s\d()]+(?:[ \t]+[^\s\d()]+){0,2}[ \t]*\(\s*(${NUM})\s*${UNIT}\s*\)\s*:?\s*\n\s*(?:[-•*–]|\d+[.)])\s`, 'i'),
  // (A quantity with π, a root or a unit's power, "Total = 112π cm²", is a criterion's answer, not marks; tuned on I.)
  // "[3]" alone on the rubric's last line, under examiner's notes (tuned on F); "(3)" so too (tuned on G).
  /\n\s*\[(\d+)\]\s*$/,
  /\n\s*\((\d+)\)\s*$/,
  // "Students earn three marks: …", "can score up to 4 points": what a student earns in all (tuned on F).
  // Not what each point or item earns ("Each correct point scores one mark"): a mark per item (tuned on I).
  new RegExp(String.raw`(?<!\b(?:each|every|per)\b[^.;:\n]*)\b(?:earns?|scores?|receives?|gains?)\s+(?:up\s+to\s+)?(${NUM})\s*${UNIT}\b`, 'i'),
];

/** "Mark allocation: 1, 1, 2", "Marks: 2, 2, 1": the marks of the criteria in order, listed on one line; their sum is the total. */
const ALLOCATION = /^\s*(?:mark(?:s)?(?:\s+allocation)?|allocation|weights?|points?)\s*[:=]\s*(\d+(?:\s*[,;/]\s*\d+)+)\s*\.?\s*$/im;

/** The sum of the marks a rubric lists on one line for its criteria in order, or null. */
export function listedTotal(rubric: string): number | null {
  const listed = ALLOCATION.exec(rubric);
  return listed ? listed[1]!.split(/[,;/]/).reduce((sum, n) => sum + Number(n), 0) : null;
}

/** A "Marks: N" line is the total only when it is the one such line (YAML-like criteria each have their own). */
const MARKS_LINE = new RegExp(String.raw`^\s*(?:marks?|points?|punkte|puntos|punti)\s*[:=]\s*(${NUM})\s*(?:\([^()\d]*\d*[^()\d]*\))?\s*\.?\s*$`, 'gim');

/** "… (2) + … (1) + … (1) = 4": a line of bracketed marks joined by "+", written out to their sum (tuned on H). */
const WRITTEN_SUM = /\)[^=\n]*\+[^=\n]*\)\s*=\s*(\d+(?:\.\d+)?)\s*\.?\s*$/;

/** The total a rubric writes, or null when it writes none. */
export function writtenTotal(rubric: string): number | null {
  const marksLines = [...rubric.matchAll(MARKS_LINE)];
  if (marksLines.length === 1) return toNumber(marksLines[0]![1]!);
  for (const line of rubric.split('\n')) {
    const result = WRITTEN_SUM.exec(line);
    const terms = [...line.matchAll(/\(\s*(\d+(?:\.\d+)?)\s*\)/g)].map((m) => Number(m[1]));
    if (result && terms.length >= 2 && Math.abs(terms.reduce((a, b) => a + b, 0) - Number(result[1])) < 1e-9) return Number(result[1]);
  }
  for (const re of WRITTEN_TOTALS) {
    const m = re.exec(rubric);
    if (m) {
      const n = toNumber(m[1]!);
      if (Number.isFinite(n) && n > 0) return n;
    }
  }
  return null;
}

/**
 * A cap that ends the rubric's last line, alone, after a dash or after a sentence, outside
 * brackets ("Max. 4", "— max 4", ". Three marks maximum."; not "…, max 2" of the line's own item): the most a student can score, read where no total is written and the criteria's marks add
 * up to more (tuned on F).
 */
const CAP = new RegExp(String.raw`(?:^|[—–-]\s*|[.;]\s+)(?:max(?:imum)?\.?\s*(?:of\s+)?(${NUM})(?:\s*${UNIT})?|(${NUM})\s*${UNIT}\s+max(?:imum)?)\s*\.?\s*$`, 'i');

/**
 * The total a question writes at its end ("… [3 marks]", "(4 marks)"), for a rubric that writes none
 * (tuned on H): where the criteria add up to more, it caps them (any three of four differences).
 */
export function questionTotal(statement: string): number | null {
  const m = new RegExp(String.raw`[[(]\s*(${NUM})\s*${UNIT}\s*[\])]\s*\.?\s*$`, 'i').exec(statement.trim());
  if (!m) return null;
  const n = toNumber(m[1]!);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The cap written on a rubric's last line, or null. */
export function writtenCap(rubric: string): number | null {
  const last = rubric.trim().split('\n').pop() ?? '';
  // A cap inside brackets ("[1 each, max 2]") is its own line's, not the rubric's.
  const m = CAP.exec(last.replace(/\([^()]*\)|\[[^\]]*\]/g, ' ').trim());
  if (!m) return null;
  const n = toNumber(m[1] ?? m[2]!);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Marks written in markup, braces, sums or a comma column, rewritten as "(N)" after the criterion. */
export function markup(lines: string[]): string[] {
  let out = plainMarks(lines).map((l) =>
    l
      // <total>3</total> is a total line.
      .replace(/<total>\s*(\d+)\s*<\/total>/gi, 'Total: $1')
      // <criterion marks="1">text</criterion>: the attribute is the criterion's mark.
      .replace(/<(\w+)[^>]*?\b(?:marks?|points?|score)\s*=\s*["']?(\d+)["']?[^>]*>(.*?)<\/\1>/gi, '$3 ($2)')
      // An HTML table row is a table row: its cells between bars, as markdown writes them (tuned on H).
      .replace(/^\s*<tr[^>]*>\s*<t[dh][^>]*>(.*)<\/t[dh]>\s*<\/tr>\s*$/i, (_, inner: string) => `| ${inner.split(/<\/t[dh]>\s*<t[dh][^>]*>/i).join(' | ')} |`)
      // Any other tag (<ul>, <li>, </li>) is layout.
      .replace(/<\/?[a-z][^>]*>/gi, ' ')
      // "**2 marks** –": markdown emphasis is layout (tuned on F).
      .replace(/\*\*([^*]+)\*\*/g, '$1')
      // "{2} text": braces hold the mark as brackets do.
      .replace(/^(\s*)\{(\d+)\}/, '$1[$2]')
      // "(1+1)": two marks of one line ("identify and explain") add up.
      .replace(/\((\d+)\s*\+\s*(\d+)\)/g, (_, a: string, b: string) => `(${Number(a) + Number(b)})`)
      .trimEnd(),
  ).filter((l, i) => l.trim() !== '' || lines[i]!.trim() === '');
  // "1. Eastings (2)" over indented "a) … (1)" / "b) … (1)": a parent whose mark is the sum of
  // its sub-criteria heads them (its mark counted once), written as a heading with its marks.
  // Only when every top-level marked line is such a parent (a heading would swallow a plain criterion after it).
  const parents = out.map((l, i) => {
    const parent = /^(\s*)(.*\S)\s*\((\d+)\)\s*$/.exec(l);
    if (!parent) return null;
    const indent = parent[1]!.length;
    let sum = 0;
    let j = i + 1;
    for (; j < out.length; j++) {
      const sub = /^(\s*).*\((\d+)\)\s*$/.exec(out[j]!);
      if (!sub || sub[1]!.length <= indent) break;
      sum += Number(sub[2]);
    }
    return { i, indent, heads: j > i + 1 && sum === Number(parent[3]), text: `${parent[1]}${parent[2]} (${parent[3]} marks):` };
  }).filter((p) => p !== null);
  const top = Math.min(...parents.map((p) => p.indent));
  const tops = parents.filter((p) => p.indent === top);
  if (tops.length > 0 && tops.every((p) => p.heads)) for (const p of tops) out[p.i] = p.text;
  // "L3 (5–6): …", "Band 2 (3-4): …": a label with a range of marks is a level; read as "Level 3 (5–6 marks):".
  out = out.map((l) => l.replace(/^(\s*)[A-Za-z]{1,6}\s*(\d)\s*\((\d+)\s*[–-]\s*(\d+)\)\s*:/, '$1Level $2 ($3–$4 marks):'));
  // "… 1m" / "… 2m" ending every numbered or bulleted line (two at least): a mark column (tuned on F).
  const listed = out.filter((l) => /^\s*(?:[-•*–]|\d+[.)]|[ivx]+[.)])\s/i.test(l));
  if (listed.length >= 2 && listed.every((l) => /\s\d+m\s*$/.test(l))) out = out.map((l) => l.replace(/\s(\d+)m\s*$/, ' ($1)'));
  // "Marks 3-4: …" over "Marks 0: …": bands labelled by their marks are levels, the top band's top mark the total (tuned on F).
  out = out.map((l) => l.replace(/^(\s*)marks?\s+(\d+)\s*[–-]\s*(\d+)\s*:/i, '$1Level $3 ($2–$3 marks):').replace(/^(\s*)marks?\s+0\s*:/i, '$10:'));
  // "Give 1 mark if … Give a further 2 marks if … Give the final mark if …": prose sentences that each
  // give marks (two or more) are criteria with those marks, one a line (tuned on H).
  out = out.flatMap((l) => {
    const give = /^(?:give|award)\s+(?:(a\s+further|another|the\s+(?:final|last|first|second|third|next))\s+)?(\d+|one|two|three|four|five|a)?\s*marks?\s+(?:if|for|when|where)\s+(.*?)[.;]?\s*$/i;
    const sentences = l.split(/(?<=[.;])\s+(?=[A-Z])/);
    if (sentences.filter((x) => give.test(x.trim())).length < 2) return [l];
    return sentences.map((x) => {
      const m = give.exec(x.trim());
      if (!m) return x;
      const n = m[2] === undefined || /^(?:a|one)$/i.test(m[2]) ? 1 : toNumber(m[2]);
      return `- ${m[3]} (${n})`;
    });
  });
  // "For 3 marks: …" over "For 2 marks: …" … "For 0 marks: …": lines led by the marks they earn, two or
  // more, are levels (tuned on H).
  const forMarks = out.filter((l) => /^\s*for\s+\d+\s*marks?\s*:/i.test(l));
  if (forMarks.length >= 2) out = out.map((l) => l.replace(/^(\s*)for\s+(\d+)\s*marks?\s*:/i, (_, sp: string, n: string) => (n === '0' ? `${sp}0:` : `${sp}Level ${n} (${n} marks):`)));
  // "An answer that … earns 3. One that … earns 2. … Anything else earns 0.": prose levels, each sentence
  // what an answer earns (two or more), one level a line (tuned on H).
  out = out.flatMap((l) => {
    const earns = /\b(?:earns?|gets?|scores?|receives?|is\s+awarded)\s+(\d+)(?:\s*marks?)?\s*[.;]/gi;
    if ([...l.matchAll(earns)].length < 2) return [l];
    return l.split(/(?<=[.;])\s+(?=[A-Z])/).map((sentence) => {
      const m = /\b(?:earns?|gets?|scores?|receives?|is\s+awarded)\s+(\d+)(?:\s*marks?)?\s*[.;]\s*$/i.exec(sentence);
      if (!m) return sentence;
      const text = sentence.slice(0, m.index).trim();
      return m[1] === '0' ? `0: ${text}` : `Level ${m[1]} (${m[1]} marks): ${text}`;
    });
  });
  // "Scoring: 0 = …; 1 = …; 2 = …": a one-line scale, one level a line (tuned on F).
  out = out.flatMap((l) => (/^\s*(?:scoring|score|scale|marks?)\s*:\s*0\s*=/i.test(l) ? l.replace(/^\s*\w+\s*:\s*/, '').split(/;\s*(?=\d+\s*=)/).map((p) => p.replace(/^(\d+)\s*=\s*/, (_, n: string) => (n === '0' ? '0: ' : `Level ${n} (${n} marks): `))) : [l]));
  // "4 ticks = 4 marks; 3 ticks = 3 marks; …": a scale of what each count earns; its top is the total (tuned on F).
  out = out.map((l) => {
    const scale = [...l.matchAll(new RegExp(String.raw`=\s*(${NUM})\s*${UNIT}`, 'gi'))].map((m) => toNumber(m[1]!));
    return scale.length >= 2 ? `Total: ${Math.max(...scale)}` : l;
  });
  // A comma column: "criterion,marks" over "text,1" rows (two rows at least); "total,4" a total.
  // A semicolon column alike: "criterion;points" over "text;1" (tuned on H).
  for (const sep of [',', ';']) {
    const rows = out.filter((l) => new RegExp(`${sep}\\s*\\d+\\s*$`).test(l) && !new RegExp(`^\\s*total\\s*${sep}`, 'i').test(l));
    if (rows.length < 2 || (sep === ';' && rows.length * 2 < out.filter((l) => l.trim()).length)) continue;
    out = out
      .filter((l) => !new RegExp(`^\\s*[a-z _]+${sep}\\s*[a-z _]+\\s*$`, 'i').test(l))
      .map((l) => l.replace(new RegExp(`^\\s*total\\s*${sep}\\s*(\\d+)\\s*$`, 'i'), 'Total: $1').replace(new RegExp(`${sep}\\s*(\\d+)\\s*$`), ' ($1)'));
  }
  return otherMarks(out);
}

/** A run of pictographs (emoji, their joiners and variation selectors): decoration, not words. */
const PICTOGRAPHS = String.raw`(?:[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]+\s*)+`;

/**
 * Marks written in plain forms any teacher may use, each a principle rather than a layout (tuned on I):
 * - a line that is a JSON object, one text and one number named mark(s)/point(s)/score: the text with that mark;
 * - pictographs leading a line before its marks ("🟢 3 marks: …") are decoration;
 * - a symbol key "Each ⭐ is one mark" (or "✓ = 1 mark"): lines led by a run of the symbol earn one
 *   mark per symbol; the key's "max ⭐⭐⭐⭐" (or "max 4") is the most that is earned;
 * - a number alone in the last (or first) tab-separated cell of two lines or more is the line's mark;
 * - an examiner's mark code ending two lines or more (`— M1`, `— A1`, `— B1`: a capital and its
 *   marks) is the line's mark; a `Key:` line saying what the codes mean is a note;
 * - lines ending "→ N marks" whose marks fall, down to a "→ 0" line, are levels (the top one the total);
 * - "Marks: (a) 2 + (b) 3 = 5": labelled parts' marks that add up to the written sum give the total.
 */
export function plainMarks(lines: string[]): string[] {
  let out = lines.map((l) => {
    if (!/^\s*\{.*\}\s*,?\s*$/.test(l)) return l;
    try {
      const record = JSON.parse(l.trim().replace(/,$/, '')) as Record<string, unknown>;
      const values = Object.entries(record);
      const text = values.filter(([, v]) => typeof v === 'string');
      const mark = values.filter(([k, v]) => typeof v === 'number' && /^(?:marks?|points?|pts|score)$/i.test(k));
      return text.length === 1 && mark.length === 1 && values.length === 2 ? `- ${text[0]![1] as string} (${mark[0]![1] as number})` : l;
    } catch {
      return l;
    }
  });
  out = out.map((l) => l.replace(new RegExp(String.raw`^(\s*)${PICTOGRAPHS}(?=${NUM}\s*${UNIT}\s*:)`, 'iu'), '$1'));
  // A symbol key: "Each ⭐ is one mark (max ⭐⭐⭐⭐)", "✓ = 1 mark".
  const KEY = new RegExp(String.raw`^\s*(?:each\s+)?([^\p{L}\p{N}\s(),.:;])\s*(?:=|is(?:\s+worth)?|counts\s+as)\s*(${NUM}|a|an)\s*${UNIT}\b(.*)$`, 'iu');
  const keyAt = out.findIndex((l) => KEY.test(l));
  if (keyAt >= 0) {
    const [, symbol, perWord, rest] = KEY.exec(out[keyAt]!)!;
    const per = /^an?$/i.test(perWord!) ? 1 : toNumber(perWord!);
    const esc = symbol!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const led = new RegExp(`^(\\s*)((?:${esc}\\s*)+)(?=\\S)`, 'u');
    if (out.filter((l, i) => i !== keyAt && led.test(l)).length >= 2) {
      const capRun = new RegExp(`max(?:imum)?\\.?\\s*(?:of\\s*)?((?:${esc}\\s*)+)`, 'iu').exec(rest!);
      const capNum = new RegExp(String.raw`max(?:imum)?\.?\s*(?:of\s*)?(${NUM})`, 'i').exec(rest!);
      const cap = capRun ? [...capRun[1]!.matchAll(new RegExp(esc, 'gu'))].length * per : capNum ? toNumber(capNum[1]!) : null;
      out = out.flatMap((l, i) => {
        if (i === keyAt) return cap ? [`Max ${cap}`] : [];
        const m = led.exec(l);
        return m ? [`${m[1]}- ${l.slice(m[0].length).trim()} (${[...m[2]!.matchAll(new RegExp(esc, 'gu'))].length * per})`] : [l];
      });
    }
  }
  // Tab columns.
  const lastCell = /\t+\s*(\d+(?:\.5)?)\s*$/;
  const firstCell = /^\s*(\d+(?:\.5)?)\t+(?=\S)/;
  // (A "Total<TAB>4" row is the total, a header row of words over the column, "Criterion<TAB>Marks", no criterion.)
  if (out.filter((l) => lastCell.test(l) && !/^\s*total\b/i.test(l)).length >= 2) {
    out = out
      .filter((l) => !new RegExp(String.raw`^[^\d\t]+\t+\s*${UNIT}\s*$`, 'i').test(l))
      .map((l) => (/^\s*total\b/i.test(l) ? l.replace(/^\s*total\b\W*?\t+\s*(\d+(?:\.5)?)\s*$/i, 'Total: $1') : l.replace(lastCell, ' ($1)').replace(/\t+/g, ' ')));
  }
  else if (out.filter((l) => firstCell.test(l)).length >= 2) out = out.map((l) => { const m = firstCell.exec(l); return m ? `- ${l.slice(m[0].length).replace(/\t+/g, ' ').trim()} (${m[1]})` : l; });
  // Mark codes.
  const code = /\s*[—–-]\s*[A-Z](\d)\s*$/;
  if (out.filter((l) => code.test(l)).length >= 2) out = out.map((l) => (code.test(l) ? l.replace(code, ' ($1)') : l.replace(/^(\s*)key\s*:/i, '$1Note:')));
  // Falling arrow marks down to 0: levels.
  const arrow = new RegExp(String.raw`\s*(?:→|->|=>|⇒)\s*(${NUM})(?:\s*${UNIT})?\.?\s*$`, 'i');
  const arrows = out.map((l) => arrow.exec(l)).filter((m) => m !== null).map((m) => toNumber(m![1]!));
  if (arrows.length >= 3 && arrows.at(-1) === 0 && arrows.every((n, i) => i === 0 || n < arrows[i - 1]!)) {
    out = out.map((l) => {
      const m = arrow.exec(l);
      if (!m) return l;
      const n = toNumber(m[1]!);
      return n === 0 ? `0: ${l.slice(0, m.index)}` : `Level ${n} (${n} marks): ${l.slice(0, m.index)}`;
    });
  }
  // Labelled parts' marks written as a sum.
  return out.map((l) => {
    const sum = /^\s*(?:marks?|points?|total)\s*[:=]?\s*((?:\(\w{1,4}\)\s*\d+(?:\.5)?\s*\+\s*)+\(\w{1,4}\)\s*\d+(?:\.5)?)\s*=\s*(\d+(?:\.5)?)\s*\.?\s*$/i.exec(l);
    if (!sum) return l;
    const parts = [...sum[1]!.matchAll(/\)\s*(\d+(?:\.5)?)/g)].reduce((a, m) => a + Number(m[1]), 0);
    return Math.abs(parts - Number(sum[2])) < 1e-9 ? `Total: ${sum[2]}` : l;
  });
}

/** A list line: a bullet, a dash or a number before it. */
const LIST_LINE = /^\s*(?:[-•*–—]|\d+(?:\.\d+)*[.)]?)\s/;

/**
 * Marks written in other forms, by general principles rather than layouts (tuned on G):
 * - "… : 2" ending two lines or more: a number alone after a last colon is the line's mark;
 * - "3/10 for: …", "… — 2/6": marks written as fractions of one total (the numerators add up to the
 *   denominator) are the marks, the denominator the total;
 * - a word that follows the number on every marked line and in the first line's bracket
 *   ("Bedömning (3 poäng)" over "… (1 poäng)", "(4 punkty)" over "– 1 pkt") is a unit of marks, in
 *   any language, when the lines' numbers add up to the first line's;
 * - a list where TOTALS.markedListShare of the lines carry a mark: a line without one is a note
 *   and earns nothing;
 * - an unmarked line over indented marked lines ("Formation" over "1. … (1)") is a heading; a
 *   marked line over indented unmarked lines ("Criterion A: Lift (2 marks)" over dashes) heads
 *   them with its marks;
 * - a label ending in "band" or "level" with a range of marks ("Top band (5–6):") is a level;
 * - "(4)" alone on the last line is the total; "… 1 mk" lines with "Any two: 2 mks" a cap; "… ✔"
 *   ending lines under a key "✔ = 1 mark, max 4" are worth the key's marks, capped.
 */
export function otherMarks(lines: string[]): string[] {
  let out = lines;
  // "(4)" alone on the last line: the total, not a criterion.
  const lastAt = out.map((l) => l.trim() !== '').lastIndexOf(true);
  const lone = lastAt > 0 ? /^\s*\((\d+)\)\s*$/.exec(out[lastAt]!) : null;
  if (lone) out = out.map((l, i) => (i === lastAt ? `Total: ${lone[1]}` : l));
  // "… 1 mk" ending two lines or more: the abbreviated unit; "Any two: 2 mks" the most that is earned.
  const mk = /\s(\d+)\s*mks?\.?\s*$/i;
  if (out.filter((l) => mk.test(l) && !/^\s*any\b/i.test(l)).length >= 2) {
    out = out.map((l) => {
      const any = new RegExp(String.raw`^\s*any\s+${NUM}\s*:?\s*(\d+)\s*mks?\.?\s*$`, 'i').exec(l);
      return any ? `Max ${any[1]}` : l.replace(mk, ' ($1)');
    });
  }
  // "… ✔" ending lines under a key "✔ = 1 mark, max 4": each such line worth the key's marks, the cap the most earned.
  const keyAt = out.findIndex((l) => new RegExp(String.raw`^\s*([✔✓★☆✅⭐])\s*=\s*(\d+)\s*${UNIT}\s*(?:[,;]\s*max(?:imum)?\.?\s*(\d+))?\s*$`, 'iu').test(l));
  if (keyAt >= 0) {
    const [, symbol, per, cap] = new RegExp(String.raw`^\s*([✔✓★☆✅⭐])\s*=\s*(\d+)\s*${UNIT}\s*(?:[,;]\s*max(?:imum)?\.?\s*(\d+))?\s*$`, 'iu').exec(out[keyAt]!)!;
    const tail = new RegExp(`\\s*${symbol}\\s*$`, 'u');
    if (out.some((l, i) => i !== keyAt && tail.test(l))) {
      out = out.flatMap((l, i) => (i === keyAt ? (cap ? [`Max ${cap}`] : []) : [tail.test(l) ? `${l.replace(tail, '')} (${per})` : l]));
    }
  }
  // Colon marks.
  const colon = /\s:\s*(\d+)\s*$/;
  const said = (l: string) => colon.test(l) && !/^\s*(?:total|max(?:imum)?|marks?|points?|score)\b/i.test(l);
  if (out.filter(said).length >= 2) out = out.map((l) => (said(l) ? l.replace(colon, ' ($1)') : l));
  // Fractions of a total.
  const frac = /^(\s*(?:[-•*–]\s*)?)(\d+)\s*\/\s*(\d+)\s+(?:for\s*)?[:—–-]?\s*(.*)$|^(.*?\S)\s*[—–-]\s*(\d+)\s*\/\s*(\d+)\s*$/;
  const fracs = out.map((l) => frac.exec(l));
  const parts = fracs.filter((m) => m !== null).map((m) => ({ k: Number(m![2] ?? m![6]), d: Number(m![3] ?? m![7]) }));
  if (parts.length >= 2 && parts.every((p) => p.d === parts[0]!.d) && parts.reduce((a, p) => a + p.k, 0) === parts[0]!.d) {
    out = [...out.map((l, i) => {
      const m = fracs[i];
      if (!m) return l;
      return m[2] !== undefined ? `${m[1]}${m[4]} (${m[2]})` : `${m[5]} (${m[6]})`;
    }), `Total: ${parts[0]!.d}`];
  }
  // A unit of marks in any language.
  // (An abbreviation may end in a point or an apostrophe, "(1 נק')"; the word may come before the number, "— skor 1"; tuned on I.)
  const title = /^\s*([^\d()\n]+?)\s*\(\s*(\d+)\s+(\p{L}+)['’׳.]?\s*\)\s*:?\s*$/u.exec(out[0] ?? '');
  if (title && !new RegExp(`^${UNIT}$`, 'i').test(title[3]!)) {
    // The mark in brackets, after a dash or, as a last item, after a comma ("…, 1 p"; tuned on H).
    const mark = /^(.*?\S)\s*(?:\(\s*(\d+)\s+(\p{L}+)['’׳.]?\s*\)|[—–-]\s*(\d+)\s+(\p{L}+)\.?|,\s*(\d+)\s+(\p{L}+)\.?|[—–-]\s*(\p{L}+)\.?\s+(\d+))\s*$/u;
    const marked = out.slice(1).map((l) => mark.exec(l));
    const found = marked.filter((m) => m !== null);
    const words = new Set(found.map((m) => (m![3] ?? m![5] ?? m![7] ?? m![8])!.toLowerCase()));
    const figure = (m: RegExpExecArray) => m[2] ?? m[4] ?? m[6] ?? m[9]!;
    const sum = found.reduce((a, m) => a + Number(figure(m!)), 0);
    if (found.length >= 2 && words.size === 1 && sum === Number(title[2])) {
      out = [`${title[1]} (${title[2]} marks):`, ...out.slice(1).map((l, i) => (marked[i] ? `${marked[i]![1]} (${figure(marked[i]!)})` : l))];
    }
  }
  // Unmarked notes in a marked list.
  const MARKED = new RegExp(String.raw`(?:\(\d+\)|[—–-]\s*\d+\s*${UNIT})\s*$`, 'i');
  const listed = out.filter((l) => LIST_LINE.test(l));
  const withMark = listed.filter((l) => MARKED.test(l));
  if (withMark.length >= 2 && withMark.length < listed.length && withMark.length >= listed.length * TOTALS.markedListShare - 1e-9) {
    out = out.filter((l) => !LIST_LINE.test(l) || MARKED.test(l));
  }
  // Headings over indented marked lines.
  out = out.filter((l, i) => {
    const next = out[i + 1];
    if (!next || /^\s/.test(l) || MARKED.test(l) || /\d/.test(l) || l.trim() === '' || /:\s*$/.test(l)) return true;
    return !(/^\s+\S/.test(next) && MARKED.test(next));
  });
  // A marked line over indented unmarked lines heads them: its marks are theirs ("Criterion A: Lift (2 marks)" over two dashes).
  out = out.map((l, i) => {
    const head = new RegExp(String.raw`^(\S.*?)\s*\(\s*(\d+)\s*${UNIT}\s*\)\s*$`, 'i').exec(l);
    const next = out[i + 1];
    if (!head || !next || !/^\s+\S/.test(next) || MARKED.test(next) || new RegExp(String.raw`\(\s*\d+\s*\)|\d+\s*${UNIT}`, 'i').test(next)) return l;
    return `${head[1]} (${head[2]} marks):`;
  });
  // Bands with a range of marks.
  out = out.map((l) => l.replace(/^(\s*)[A-Za-z ]{0,20}\b(?:band|level|tier)\s*\((\d+)\s*[–-]\s*(\d+)\)\s*:/i, (_, sp: string, a: string, b: string) => `${sp}Level ${b} (${a}–${b} marks):`));
  return out;
}
