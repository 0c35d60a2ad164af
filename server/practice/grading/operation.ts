/**
 * Grading as an operation of the worker pool: a long essay against a long rubric holds a thread
 * for a few hundred milliseconds, which must not be the event loop's. Light on purpose: the main
 * thread reads this to send the task; the grader itself (task.ts) loads only where it runs. A
 * GradingInputError comes back as data, so its `loc` survives the thread boundary.
 */
import { workerOperation } from '../../workers/pool.ts';
import type { GradeInput, GradeResult } from '../types.ts';
import { GradingInputError } from './errors.ts';

export type GradeTaskResult = { grade: GradeResult } | { inputError: { loc: (string | number)[]; message: string } };

export const gradeOperation = workerOperation<GradeInput, GradeTaskResult>('grading.grade');

/** The grade a task answered, or its GradingInputError thrown again on this side. */
export function gradeOf(r: GradeTaskResult): GradeResult {
  if ('inputError' in r) throw new GradingInputError(r.inputError.loc, r.inputError.message);
  return r.grade;
}

/** Characters of a grade request (answer, reference, rubric, question): the size its time limit and thread are chosen by. */
export function gradeInputChars(input: GradeInput): number {
  return [input.user_answer, input.correct_answer, input.scoring_details, input.problem_statement].reduce((n, s) => n + (typeof s === 'string' ? s.length : 0), 0);
}
