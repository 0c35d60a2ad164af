/**
 * A class's answers to one problem, graded together and grouped so that a teacher reviews one
 * answer per group: answers the grader treats as the same (the same value for the CAS, the same
 * normalised text, the same criteria met with the same evidence) and with the same grade are one
 * group. Groups come largest first; a teacher's score for one answer (`reviews`) is given to every
 * answer of its group.
 */
import type { GradeInput, GradeResult } from '../types.ts';
import { GradingInputError } from './errors.ts';
import { gradeAnswer } from './index.ts';
import { parse } from './math/kas.ts';
import { normalizeMath } from './math/normalize.ts';

export const MAX_BATCH_ANSWERS = 500;

export type BatchProblem = Omit<GradeInput, 'user_answer'>;

export interface Review {
  answer_index: number;
  score: number;
}

export interface BatchGroup {
  answer_indexes: number[];
  score: number;
  max_score: number;
}

export type BatchGrade = GradeResult & { group: number; reviewed?: boolean };

export interface BatchResult {
  grades: BatchGrade[];
  groups: BatchGroup[];
}

const FINGERPRINT_AT = [0.37, -1.29, 2.71];
const FUNCTION_NAMES = /\b(?:sqrt|sin|cos|tan|log|ln|exp|pi|inf)\b/gi;

/** A mathematical answer's values at three points (x = y = ... = the point), or null when it has none to give. */
function valueFingerprint(text: string): string | null {
  const t = normalizeMath(text);
  // A list ("2, 3", "{2, 3}", "2 and 3"), an equation or an inequality is no single value: its
  // normalised text groups it, without a parse (kas reads "2 and 3" as 2·a·n·d·3, at a cost).
  if (t.length > 200 || /[=<>,{};]/.test(t) || /[a-z]{3,}/i.test(t.replace(FUNCTION_NAMES, ''))) return null;
  const e = parse(t);
  if (!e) return null;
  const names = e.getVars();
  const values = FINGERPRINT_AT.map((x) => {
    try {
      return e.eval(Object.fromEntries(names.map((n) => [n, x])));
    } catch {
      return Number.NaN;
    }
  });
  if (!values.every(Number.isFinite)) return null;
  return values.map((v) => v.toPrecision(12)).join(',');
}

const normalText = (s: string) => s.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** What makes two answers "the same" for the grader, with their grade. */
export function sameKey(answer: string, g: GradeResult): string {
  const grade = `${g.score}/${g.max_score}`;
  if (g.method === 'math') return `m:${grade}:${valueFingerprint(answer) ?? normalText(normalizeMath(answer))}`;
  if (g.criteria?.length) return `r:${grade}:${JSON.stringify(g.criteria.map((c) => [c.awarded, normalText(c.evidence)]))}`;
  return `t:${grade}:${normalText(answer)}`;
}

/** Groups graded answers, largest group first (ties: the group whose first answer comes first). */
export function groupAnswers(answers: string[], grades: GradeResult[]): { groups: BatchGroup[]; groupOf: number[] } {
  const byKey = new Map<string, number[]>();
  answers.forEach((a, i) => {
    const k = sameKey(a, grades[i]!);
    const list = byKey.get(k);
    if (list) list.push(i);
    else byKey.set(k, [i]);
  });
  const lists = [...byKey.values()].sort((a, b) => b.length - a.length || a[0]! - b[0]!);
  const groupOf: number[] = [];
  lists.forEach((l, gi) => l.forEach((i) => (groupOf[i] = gi)));
  return { groups: lists.map((l) => ({ answer_indexes: l, score: grades[l[0]!]!.score, max_score: grades[l[0]!]!.max_score })), groupOf };
}

/**
 * Grades every answer (throws the first GradingInputError, e.g. a problem with no reference),
 * groups them and applies the reviews: a reviewed answer's group takes the teacher's score and
 * needs no review.
 */
export function gradeBatch(problem: BatchProblem, answers: string[], reviews: Review[] = []): BatchResult {
  // A class writes the same answer many times: each distinct text is graded once.
  const seen = new Map<string, GradeResult>();
  const grades = answers.map((a) => {
    let g = seen.get(a);
    if (!g) seen.set(a, (g = gradeAnswer({ ...problem, user_answer: a })));
    return g;
  });
  const { groups, groupOf } = groupAnswers(answers, grades);
  const out: BatchGrade[] = grades.map((g, i) => ({ ...g, group: groupOf[i]! }));
  reviews.forEach((r, k) => {
    if (!Number.isInteger(r.answer_index) || r.answer_index < 0 || r.answer_index >= answers.length) {
      throw new GradingInputError(['body', 'reviews', k, 'answer_index'], `answer_index ${r.answer_index} is not the index of one of the ${answers.length} answers.`);
    }
    const group = groups[groupOf[r.answer_index]!]!;
    if (!(r.score >= 0 && r.score <= group.max_score)) {
      throw new GradingInputError(['body', 'reviews', k, 'score'], `score must be between 0 and the answer's max_score (${group.max_score}).`);
    }
    group.score = r.score;
    for (const i of group.answer_indexes) {
      out[i] = { ...out[i]!, score: r.score, confidence: 'high', needs_review: false, reviewed: true, explanation: `Reviewed: a teacher gave ${r.score}/${group.max_score} to answer ${r.answer_index}, which the grader treats as the same as this one. ${out[i]!.explanation}` };
    }
  });
  return { grades: out, groups };
}
