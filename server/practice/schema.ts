/**
 * zod schema of a PracticeProblem (server/practice/types.ts) with the rules between its fields:
 * an mcq's correct_answer is one of its keys, a select_all's lists some of its keys, an frq has no
 * choices. Used to check what an LLM produced and what a stored set holds.
 */
import * as z from 'zod';
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

// ---- responses of the list and delete endpoints (issue 16), for the OpenAPI document ----------

/** One set of GET /v1/interactives/practice/list. */
export const practiceSetListItemSchema = z.object({
  set_id: z.string(),
  set_name: z.string().nullable(),
  status: z.string().describe('pending, completed or failed as stored; the status endpoint tells status_error apart'),
  total_problems: z.number().int(),
  completed_problems: z.number().int(),
  engine: z.string().nullable(),
  /** Dollars charged once the set ended; null while pending. */
  cost: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const practiceSetListResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  sets: z.array(practiceSetListItemSchema),
  next_page_token: z.number().int().optional(),
});

export const practiceSetDeleteResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  set_id: z.string(),
  /** The status the set had when it was deleted. */
  status: z.string(),
  /** True when its generation job was still queued or running and was stopped. */
  cancelled: z.boolean(),
  /** Dollars the set cost in the end (for a cancelled set: the problems made before it stopped). */
  cost: z.number(),
  /** Dollars given back by this deletion (the unmade problems of a cancelled set). */
  refunded: z.number(),
  timestamp: z.string(),
});

/** Answer of POST /v1/interactives/practice/create (also what an Idempotency-Key replay returns). */
export const practiceSetCreateResponseSchema = z.object({
  success: z.literal(true),
  set_id: z.string(),
  status: z.literal('pending'),
  message: z.string(),
  timestamp: z.string(),
});

export type PracticeSetListItem = z.infer<typeof practiceSetListItemSchema>;
export type PracticeSetListResponse = z.infer<typeof practiceSetListResponseSchema>;
export type PracticeSetDeleteResponse = z.infer<typeof practiceSetDeleteResponseSchema>;
export type PracticeSetCreateResponse = z.infer<typeof practiceSetCreateResponseSchema>;

/** Answer of GET /v1/interactives/practice/status/{set_id} (StatusView in service.ts). */
export const practiceSetStatusResponseSchema = z.object({
  set_id: z.string(),
  success: z.boolean(),
  status: z.enum(['pending', 'completed', 'failed', 'status_error']),
  total_problems: z.number().int(),
  completed_problems: z.number().int(),
  timestamp: z.string(),
  message: z.string(),
  engine: z.string().nullable(),
  set_name: z.string().nullable(),
  created_at: z.string(),
  response: z
    .object({
      set_id: z.string(),
      set_name: z.string(),
      problems: problemListSchema,
      cost: z.number(),
      engine: z.string(),
    })
    .optional()
    .describe('the problems, once completed'),
});

/** Answer of POST /v1/interactives/practice/grade. */
export const gradeResponseSchema = z.object({
  success: z.literal(true),
  score: z.number(),
  max_score: z.number(),
  explanation: z.string(),
  method: z.enum(['choice', 'math', 'rubric', 'llm']),
  met: z.array(z.string()),
  missed: z.array(z.string()),
  /** `high` only when every rule that decided the grade is one the grader can check (docs/practice-api.md). */
  confidence: z.enum(['high', 'low']),
  /** The grader is not sure or could not check (a CAS limit, a rubric total it could not read): a teacher should look. */
  needs_review: z.boolean(),
  /** Rubrics: each criterion with its points, the points awarded and the answer's words that met it (empty when unmet). */
  criteria: z.array(z.object({ criterion: z.string(), points: z.number(), awarded: z.number(), evidence: z.string() })).optional(),
  engine: z.string(),
  /** Which engine decided: `offline`; `llm` (a low-confidence offline grade sent to the LLM, or engine "llm"); `cas` (the CAS overruled the LLM). */
  decided_by: z.enum(['offline', 'llm', 'cas']),
  fallback_reason: z.string().optional(),
  timestamp: z.string(),
});
export type PracticeSetStatusResponse = z.infer<typeof practiceSetStatusResponseSchema>;
export type GradeResponse = z.infer<typeof gradeResponseSchema>;

/** One sub-topic of GET /v1/interactives/practice/topics (the offline catalogue, offline/school/catalogue.ts). */
export const practiceTopicSchema = z.object({
  id: z.string().describe('the sub-topic id; a set of it names it in its engine, `offline:<id>`'),
  name: z.string(),
  area: z.string().describe('the broader topic (a description naming it mixes all its sub-topics)'),
  area_name: z.string(),
  levels: z.object({ easy: z.string(), medium: z.string(), hard: z.string() }).describe('what each difficulty holds'),
  examples: z.array(z.string()).describe('set descriptions that ask for exactly this sub-topic'),
});

/** Answer of GET /v1/interactives/practice/topics. */
export const practiceTopicsResponseSchema = z.object({
  success: z.literal(true),
  count: z.number().int(),
  topics: z.array(practiceTopicSchema),
  timestamp: z.string(),
});
export type PracticeTopicsResponse = z.infer<typeof practiceTopicsResponseSchema>;

/** One grade of a batch: the single grade's fields, its group's index, and whether a teacher's review set it. */
export const batchGradeSchema = gradeResponseSchema.omit({ success: true, timestamp: true, engine: true, decided_by: true, fallback_reason: true }).extend({
  group: z.number().int(),
  reviewed: z.boolean().optional(),
});

/** Answer of POST /v1/interactives/practice/grade/batch. */
export const gradeBatchResponseSchema = z.object({
  success: z.literal(true),
  grades: z.array(batchGradeSchema),
  groups: z.array(z.object({ answer_indexes: z.array(z.number().int()), score: z.number(), max_score: z.number() })),
  engine: z.string(),
  timestamp: z.string(),
});
export type GradeBatchResponse = z.infer<typeof gradeBatchResponseSchema>;
