/**
 * Verdicts of bench figures. A figure states its goal in its name, `(goal <= 1.5)`, `(goal < 250)`,
 * `(goal >= 0.5)`: the comparison is read from there, so the goal printed and the goal judged are
 * one text. Figures without a goal are measurements shown for context.
 */
export interface Verdict {
  suite: string;
  name: string;
  value: number;
  goal: string;
  met: boolean;
}

const GOAL = /\(goal\s*(<=|<|>=|>|=)\s*([\d.,_]+)\s*\)/;

export function verdictOf(suite: string, name: string, value: number): Verdict | undefined {
  const m = GOAL.exec(name);
  if (!m) return undefined;
  const bound = Number(m[2]!.replace(/[,_]/g, ''));
  const op = m[1]!;
  const met =
    Number.isFinite(value) &&
    (op === '<=' ? value <= bound : op === '<' ? value < bound : op === '>=' ? value >= bound : op === '>' ? value > bound : value === bound);
  return { suite, name: name.replace(GOAL, '').replace(/\s+$/, ''), value, goal: `${op} ${bound}`, met };
}

export function formatValue(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
}

/** The table printed at the end of `npm run bench`. */
export function summaryTable(verdicts: readonly Verdict[]): string {
  const rows = verdicts.map((v) => [v.met ? 'ok' : 'MISS', v.suite, v.name, formatValue(v.value), v.goal]);
  const head = ['verdict', 'suite', 'figure', 'value', 'goal'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const missed = verdicts.filter((v) => !v.met).length;
  return [
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
    '',
    `${verdicts.length - missed} of ${verdicts.length} goals met${missed > 0 ? `; MISSED: ${verdicts.filter((v) => !v.met).map((v) => `${v.suite}: ${v.name}`).join('; ')}` : ''}`,
  ].join('\n');
}
