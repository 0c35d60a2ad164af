/**
 * zod schema of a PracticeProblem (server/practice/types.ts) with the rules between its fields:
 * an mcq's correct_answer is one of its keys, a select_all's lists some of its keys, an frq has no
 * choices. Used to check what an LLM produced and what a stored set holds.
 */
import { z } from 'zod';
import type { PracticeProblem } from './types.ts';

export const problemTypes = ['mcq', 'frq', 'select_all'] as const;
export const difficulties = ['easy', 'medium', 'hard'] as const;

export const practiceProblemSchema = z
  .object({
    problem_type: z.enum(problemTypes),
    problem_statement: z.string().trim().min(1).max(4000),
    correct_answer: z.string().trim().min(1).max(2000),
    difficulty: z.enum(difficulties),
    answer_choices: z.record(z.string().min(1).max(8), z.string().min(1).max(1000)),
    explanation: z.string().max(4000),
    scoring_details: z.string().max(4000),
    include_graph: z.boolean(),
    graph_description: z.string(),
    graph_url: z.string(),
  })
  .superRefine((p, ctx) => {
    const keys = Object.keys(p.answer_choices);
    if (p.problem_type === 'frq') {
      if (keys.length > 0) ctx.addIssue({ code: 'custom', path: ['answer_choices'], message: 'a free-response problem has no answer choices' });
      return;
    }
    if (keys.length < 2) ctx.addIssue({ code: 'custom', path: ['answer_choices'], message: 'a choice problem needs at least two choices' });
    const picked = p.correct_answer.split(',').map((k) => k.trim());
    if (p.problem_type === 'mcq' && (picked.length !== 1 || !keys.includes(picked[0]!))) {
      ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: `an mcq correct_answer must be one of the keys ${keys.join(', ')}` });
    }
    if (p.problem_type === 'select_all' && picked.some((k) => !keys.includes(k))) {
      ctx.addIssue({ code: 'custom', path: ['correct_answer'], message: `a select_all correct_answer lists keys of answer_choices (${keys.join(', ')}), e.g. "A,C"` });
    }
  }) satisfies z.ZodType<PracticeProblem>;

export const problemListSchema = z.array(practiceProblemSchema);
