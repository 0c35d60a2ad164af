import type { GradeResult } from '../types.ts';

/**
 * A one-mark verdict on an answer against its reference: right or wrong, sure or for review, with
 * why (the reference is named after the reason).
 */
export function referenceVerdict(reference: string, ok: boolean, sure: boolean, why: string): GradeResult {
  return {
    score: ok ? 1 : 0,
    max_score: 1,
    method: 'rubric',
    met: ok ? [reference] : [],
    missed: ok ? [] : [reference],
    explanation: `${why} The expected answer is ${reference}.`,
    confidence: sure ? 'high' : 'low',
    needs_review: !sure,
  };
}
