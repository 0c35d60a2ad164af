/**
 * Grading as an operation of the worker pool: a long essay against a long rubric holds a thread
 * for a few hundred milliseconds, which must not be the event loop's. Light on purpose: the main
 * thread reads this to send the task; the grader itself (task.ts) loads only where it runs. A
 * GradingInputError comes back as data, so its `loc` survives the thread boundary.
 */
import { workerOperation } from '../../workers/pool.ts';
import type { GradeInput, GradeResult } from '../types.ts';
import type { BatchProblem, BatchResult, Review } from './batch.ts';
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

export interface BatchInput {
  problem: BatchProblem;
  answers: string[];
  reviews?: Review[];
}
export type BatchTaskResult = { batch: BatchResult } | { inputError: { loc: (string | number)[]; message: string } };

/** A class's answers graded and grouped in a worker (grading/batch.ts). */
export const gradeBatchOperation = workerOperation<BatchInput, BatchTaskResult>('grading.batch');

/** The batch a task answered, or its GradingInputError thrown again on this side. */
export function batchOf(r: BatchTaskResult): BatchResult {
  if ('inputError' in r) throw new GradingInputError(r.inputError.loc, r.inputError.message);
  return r.batch;
}

/** Characters of a batch request: the size its time limit is chosen by. */
export function batchInputChars(input: BatchInput): number {
  return input.answers.reduce((n, a) => n + a.length, 0) + gradeInputChars({ ...input.problem, user_answer: '' });
}
