import * as KAS from '@khanacademy/kas';
import { expect } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { lookup, synset } from '../../server/practice/lexicon/wordnet.ts';

interface KasExpr {
  eval(vars: Record<string, number>): number;
}
const kas = ((KAS as unknown as { default?: unknown }).default ?? KAS) as { parse(s: string): { parsed: boolean; expr: KasExpr } };

/** Numeric value of an expression by an engine other than the generator's CAS. */
export function evalExpr(expr: string, vars: Record<string, number> = {}): number {
  const p = kas.parse(expr.replace(/%/g, '').replace(/×/g, '*').replace(/÷/g, '/'));
  if (!p.parsed) throw new Error(`kas cannot parse ${expr}`);
  return p.expr.eval(vars);
}

/** "x = -7/3, y = 2" -> { x: [-2.333], y: [2] } */
export function solutions(answer: string): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const part of answer.split(',')) {
    const m = /^\s*([a-z])\s*=\s*(.+)$/.exec(part);
    if (!m) throw new Error(`not a solution list: ${answer}`);
    (out[m[1]] ??= []).push(evalExpr(m[2]));
  }
  return out;
}

export const close = (a: number, b: number, tol = 1e-6) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

/** Independent check: is `term` (one of its noun senses) within three hypernym/instance/part steps of `root`? */
export function under(term: string, root: string): boolean {
  const roots = new Set(lookup(root));
  let frontier = lookup(term);
  for (let depth = 0; depth < 3; depth++) {
    if (frontier.some((o) => roots.has(o))) return true;
    frontier = frontier.flatMap((o) => synset(o).pointers.filter((p) => ['@', '@i', '#p'].includes(p.symbol)).map((p) => p.offset));
  }
  return false;
}

/** A free-response answer graded against a reference (no rubric). */
export const gradeFrq = (question: string, reference: string, answer: string) =>
  gradeAnswer({ problem_type: 'frq', problem_statement: question, correct_answer: reference, user_answer: answer });

/** [question, reference, answer, accepted, confidence]: a verdict the grader must give, and how sure. */
export type VerdictCase = [string, string, string, boolean, 'high' | 'low'];

/** Accepted means full marks; the confidence is the one expected. */
export function expectVerdict(g: { score: number; max_score: number; confidence?: string }, accepted: boolean, confidence: 'high' | 'low'): void {
  expect(g.score === g.max_score).toBe(accepted);
  expect(g.confidence).toBe(confidence);
}
