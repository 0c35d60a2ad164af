/**
 * Shared by the evaluation tests: the item files' shapes, reading them, grading each item with
 * gradeAnswer and the rates printed per category.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { gradeAnswer } from '../../../server/practice/grading/index.ts';
import type { GradeResult } from '../../../server/practice/types.ts';

const nonEmpty = z.string().trim().min(1);

/** Strict objects: a misspelt key (e.g. "lable") fails here instead of silently dropping a field. */
export const BinaryItem = z.strictObject({
  id: z.string().regex(/^[ms](?:-[c-z])?\d{3,4}$/),
  problem_statement: nonEmpty,
  correct_answer: nonEmpty,
  scoring_details: nonEmpty.optional(),
  user_answer: nonEmpty,
  label: z.enum(['correct', 'incorrect']),
  note: nonEmpty,
});

export const RubricItem = z
  .strictObject({
    id: z.string().regex(/^r(?:-[c-z])?\d{3}$/),
    problem_statement: nonEmpty,
    correct_answer: nonEmpty.optional(),
    scoring_details: nonEmpty,
    user_answer: nonEmpty,
    expected_score: z.number().min(0).multipleOf(0.5), // half marks exist (set D: "½ mark each")
    max_score: z.number().min(0.5).multipleOf(0.5), // a total of half marks exists too (set I: 2.5)
    note: nonEmpty,
  })
  .refine((item) => item.expected_score <= item.max_score, { message: 'expected_score above max_score' });

export type BinaryItem = z.infer<typeof BinaryItem>;
export type RubricItem = z.infer<typeof RubricItem>;

export function readItems(file: string): unknown[] {
  const raw: unknown = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of items`);
  return raw;
}

/** Parses every item of a file; the error names each malformed item by id (or index) and the field. */
export function parseItems<T>(file: string, schema: z.ZodType<T>): T[] {
  const problems: string[] = [];
  const items: T[] = [];
  readItems(file).forEach((raw, index) => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) items.push(parsed.data);
    else {
      const id = (raw as { id?: unknown } | null)?.id;
      problems.push(`${file} item ${typeof id === 'string' ? id : `#${index}`}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(item)'} ${i.message}`).join('; ')}`);
    }
  });
  if (problems.length) throw new Error(`malformed evaluation items:\n${problems.join('\n')}`);
  return items;
}

export interface Outcome {
  id: string;
  category: string;
  answer: string;
  expected: string;
  got: string;
  explanation: string;
  agrees: boolean;
  falseAccept: boolean;
  falseReject: boolean;
  /** Whether the item could be falsely accepted / rejected (denominators of the rates). */
  canFalseAccept: boolean;
  canFalseReject: boolean;
  /** Rubric items: whether the grader found the rubric's total, and the rubric's layout (layoutOf). */
  maxAgrees?: boolean;
  layout?: string;
  /** The grade's confidence and whether it asks for a review. */
  high?: boolean;
  needsReview?: boolean;
}

/** A throwing grader is recorded as a disagreement so one crash does not hide the other items. */
export async function grade(input: Parameters<typeof gradeAnswer>[0]): Promise<GradeResult | Error> {
  try {
    return await gradeAnswer(input);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

export async function gradeBinary(category: string, item: BinaryItem): Promise<Outcome> {
  const result = await grade({
    problem_type: 'frq',
    problem_statement: item.problem_statement,
    user_answer: item.user_answer,
    correct_answer: item.correct_answer,
    ...(item.scoring_details ? { scoring_details: item.scoring_details } : {}),
  });
  const shouldAccept = item.label === 'correct';
  const base = { id: item.id, category, answer: item.user_answer, expected: item.label, canFalseAccept: !shouldAccept, canFalseReject: shouldAccept };
  if (result instanceof Error) {
    return { ...base, got: 'threw', explanation: result.message, agrees: false, falseAccept: false, falseReject: shouldAccept };
  }
  const accepted = result.max_score > 0 && result.score === result.max_score;
  return {
    ...base,
    high: result.confidence === 'high',
    needsReview: result.needs_review === true,
    got: `${accepted ? 'accepted' : 'refused'} ${result.score}/${result.max_score}`,
    explanation: result.explanation,
    agrees: accepted === shouldAccept,
    falseAccept: accepted && !shouldAccept,
    falseReject: !accepted && shouldAccept,
  };
}

export async function gradeRubric(item: RubricItem): Promise<Outcome> {
  const result = await grade({
    problem_type: 'frq',
    problem_statement: item.problem_statement,
    user_answer: item.user_answer,
    scoring_details: item.scoring_details,
    ...(item.correct_answer ? { correct_answer: item.correct_answer } : {}),
  });
  const base = { id: item.id, category: 'rubric', answer: item.user_answer, expected: `${item.expected_score}/${item.max_score}`, canFalseAccept: true, canFalseReject: true };
  if (result instanceof Error) {
    return { ...base, got: 'threw', explanation: result.message, agrees: false, falseAccept: false, falseReject: true, maxAgrees: false };
  }
  return {
    ...base,
    high: result.confidence === 'high',
    needsReview: result.needs_review === true,
    got: `${result.score}/${result.max_score}`,
    explanation: result.explanation,
    agrees: result.score === item.expected_score,
    falseAccept: result.score > item.expected_score,
    falseReject: result.score < item.expected_score,
    maxAgrees: result.max_score === item.max_score,
    layout: layoutOf(item.scoring_details),
  };
}

/** The layout a rubric is written in, for the max_score report per layout (first that applies). */
export function layoutOf(rubric: string): string {
  const r = rubric;
  const tests: [string, RegExp][] = [
    ['table', /^\s*\|.*\|\s*$/m],
    ['level descriptors', /\b(?:level|band|score)\s*\d|\bmarks?\s*\d\s*[–-]\s*\d\s*:|^\s*\d\/\d\s*[—-]|excellent\s*\(\d/im],
    ['Award N marks for: over lines', /^\s*award\s+\w+\s+marks?\s+for\s*:?\s*$/im],
    ['per item / any N of', /\b(?:each|per)\b.*\b(?:max|up to)|\bany\s+(?:\d|two|three)\b|\bmax(?:imum)?\s+(?:\d|two|three|four)/i],
    ['— N pts suffix', /[—–-]\s*\d+\s*(?:pts?|points?)\b/i],
    ['[N marks] / (N marks) heading or footer', /^\s*[[(]?\s*(?:total\s*:?\s*)?\d+\s*marks?\s*[\])]?\s*$|\[\d+\s*marks?\]\s*$|\btotal\s*:\s*\d/im],
    ['Q heading (N marks)', /^\s*Q\d+.*\(\d+\s*marks?\)/im],
    ['points before ([N], +N, N marks:)', /^\s*(?:[-*•]\s*)?(?:\[\d+\]|\+\d|\d+\s*(?:marks?|points?|pts?)\s*[:\-–—])/im],
    ['points after ((N), [N], (Nm))', /(?:\(\d+\s*(?:m|marks?|points?|pts?)?\)|\[\d+\])\s*$/im],
    ['labelled / YAML-like', /^\s*(?:-\s*)?(?:criterion|points|[A-Z][a-z]+)\s*:/m],
    ['prose or unmarked list', /./],
  ];
  return tests.find(([, re]) => re.test(r))![0];
}

/** max_score equality per rubric layout: [layout, items, share equal]. */
export function maxByLayout(outcomes: Outcome[]): [string, number, number][] {
  const by = new Map<string, Outcome[]>();
  for (const o of outcomes) if (o.layout) by.set(o.layout, [...(by.get(o.layout) ?? []), o]);
  return [...by].map(([l, os]) => [l, os.length, share(os.filter((o) => o.maxAgrees).length, os.length)]);
}

export interface Stats {
  items: number;
  agreement: number;
  falseAccept: number;
  falseReject: number;
  maxAgreement?: number;
  /** Of the `high` verdicts: items, agreement and false accepts (over the high items that could be falsely accepted). */
  highItems: number;
  highAgreement: number;
  highFalseAccept: number;
  /** Share of items marked needs_review. */
  review: number;
}

const share = (count: number, of: number): number => (of === 0 ? 0 : count / of);

export function stats(outcomes: Outcome[]): Stats {
  const rubric = outcomes.filter((o) => o.maxAgrees !== undefined);
  const high = outcomes.filter((o) => o.high);
  return {
    items: outcomes.length,
    agreement: share(outcomes.filter((o) => o.agrees).length, outcomes.length),
    falseAccept: share(outcomes.filter((o) => o.falseAccept).length, outcomes.filter((o) => o.canFalseAccept).length),
    falseReject: share(outcomes.filter((o) => o.falseReject).length, outcomes.filter((o) => o.canFalseReject).length),
    ...(rubric.length ? { maxAgreement: share(rubric.filter((o) => o.maxAgrees).length, rubric.length) } : {}),
    highItems: high.length,
    highAgreement: share(high.filter((o) => o.agrees).length, high.length),
    highFalseAccept: share(high.filter((o) => o.falseAccept).length, high.filter((o) => o.canFalseAccept).length),
    review: share(outcomes.filter((o) => o.needsReview).length, outcomes.length),
  };
}

export const pct = (x: number | undefined): string => (x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\s+/g, ' ');

export function table(rows: [string, Stats][]): string {
  const header = ['category', 'items', 'agreement', 'false-accept', 'false-reject', 'max_score agreement', 'high items', 'high agreement', 'high false-accept', 'needs_review'];
  const body = rows.map(([name, s]) => [name, String(s.items), pct(s.agreement), pct(s.falseAccept), pct(s.falseReject), pct(s.maxAgreement), String(s.highItems), pct(s.highAgreement), pct(s.highFalseAccept), pct(s.review)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)].join('\n');
}
