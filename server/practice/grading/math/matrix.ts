/**
 * Matrices written as nested lists, "[[1, 2], [3, 4]]" (LaTeX pmatrix/bmatrix/matrix become this
 * in normalize.ts). A single row or column is a vector, read as the tuple "(3, -5)" is.
 */
import { readValue, type Solutions, type Value } from './read.ts';

export interface Matrix {
  kind: 'matrix';
  rows: Value[][];
}

/** Splits at commas outside brackets. */
export function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

export function looksLikeMatrix(text: string): boolean {
  return /^\[\s*\[[^]*\]\s*\]$/.test(text.trim());
}

/** "[[a, b], [c, d]]" as a matrix; one row or one column as a vector (a tuple). */
export function readMatrix(text: string): Matrix | Solutions | null {
  const t = text.trim();
  if (!looksLikeMatrix(t)) return null;
  const rows: Value[][] = [];
  for (const row of splitTop(t.slice(1, -1))) {
    const m = /^\[([^]*)\]$/.exec(row);
    if (!m) return null;
    const entries = splitTop(m[1]).map((e) => readValue(e, false));
    if (entries.some((e) => e === null)) return null;
    rows.push(entries as Value[]);
  }
  if (rows.some((r) => r.length !== rows[0].length)) return null;
  const flat = rows.flat();
  if (flat.length > 1 && (rows.length === 1 || rows[0].length === 1)) {
    return { kind: 'solutions', parts: flat.map((value) => ({ variable: null, value })), tuple: true };
  }
  return { kind: 'matrix', rows };
}

export function shape(m: Matrix): string {
  return `${m.rows.length}×${m.rows[0].length}`;
}

export function showMatrix(m: Matrix): string {
  return `[${m.rows.map((r) => `[${r.map((v) => v.literal).join(', ')}]`).join(', ')}]`;
}

/** Entry by entry, with the value comparison numbers use; a different shape is named. */
export function compareMatrix(user: { kind: string }, ref: Matrix, same: (u: Value, r: Value) => boolean): { equal: boolean; why?: string } {
  if (user.kind !== 'matrix') return { equal: false, why: `a ${shape(ref)} matrix is expected` };
  const u = user as Matrix;
  if (u.rows.length !== ref.rows.length || u.rows[0].length !== ref.rows[0].length) {
    return { equal: false, why: `it is a ${shape(u)} matrix; the expected matrix is ${shape(ref)}` };
  }
  const wrong: string[] = [];
  ref.rows.forEach((row, i) => row.forEach((r, j) => same(u.rows[i][j], r) || wrong.push(`row ${i + 1}, column ${j + 1}`)));
  if (wrong.length === 0) return { equal: true };
  return { equal: false, why: `the entr${wrong.length > 1 ? 'ies' : 'y'} in ${wrong.join('; ')} ${wrong.length > 1 ? 'differ' : 'differs'}` };
}
