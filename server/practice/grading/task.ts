/** The grading operation (operation.ts) as it runs in a worker thread (server/worker.ts). */
import type { GradeInput } from '../types.ts';
import { GradingInputError } from './errors.ts';
import { gradeAnswer } from './index.ts';
import type { BatchInput, BatchTaskResult, GradeTaskResult } from './operation.ts';
import { gradeBatch } from './batch.ts';

export function gradeTask(input: GradeInput): { result: GradeTaskResult } {
  try {
    return { result: { grade: gradeAnswer(input) } };
  } catch (err) {
    if (err instanceof GradingInputError) return { result: { inputError: { loc: err.loc, message: err.message } } };
    throw err;
  }
}

export function gradeBatchTask(input: BatchInput): { result: BatchTaskResult } {
  try {
    return { result: { batch: gradeBatch(input.problem, input.answers, input.reviews) } };
  } catch (err) {
    if (err instanceof GradingInputError) return { result: { inputError: { loc: err.loc, message: err.message } } };
    throw err;
  }
}
