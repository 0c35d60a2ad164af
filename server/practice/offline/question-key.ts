/**
 * The identity of a question within a set: its statement with spacing, case and punctuation
 * ignored, and for select_all (whose statement is a shared heading) the set of its statements.
 * Two problems with one key ask the same thing; a set holds each key once. Shared by the offline
 * planner and the check of LLM output.
 */
import type { PracticeProblem } from '../types.ts';

export function normalizeStatement(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2212\u2013\u2014]/g, '-')
    .replace(/[^\p{L}\p{N}+\-*/^=<>%().,]+/gu, ' ')
    .replace(/\s*([+\-*/^=<>(),])\s*/g, '$1')
    .replace(/[.\s]+$/, '')
    .trim();
}

export function questionKey(p: Pick<PracticeProblem, 'problem_type' | 'problem_statement' | 'answer_choices'>): string {
  const statement = normalizeStatement(p.problem_statement);
  if (p.problem_type !== 'select_all') return statement;
  const choices = Object.values(p.answer_choices).map(normalizeStatement).sort();
  return `${statement}|${choices.join('|')}`;
}
