/** HTTP routes of practice sets (spec endpoints 9-11): parse, call the domain, shape. */
import { Router, type Request } from 'express';
import { z } from 'zod';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { invalid, parseOr422 } from '../http/errors.ts';
import { nowIso } from '../storage/db.ts';
import { checkWebhookUrl } from '../webhooks/ssrf.ts';
import { GradingInputError } from './grading/index.ts';
import { MAX_COUNT } from './offline/index.ts';
import { difficulties } from './schema.ts';
import type { PracticeService } from './service.ts';

export const MAX_DESCRIPTION = 2000;
export const MAX_SET_NAME = 200;
const MAX_ANSWER = 20_000;

const nonBlank = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is limited to ${max} characters`)
    .refine((s) => s.trim().length > 0, `${what} must not be blank`);

const engine = z.enum(['offline', 'llm']).optional();

const createBody = z.object({
  set_description: nonBlank(MAX_DESCRIPTION, 'set_description'),
  count: z.number().int().min(1).max(MAX_COUNT).default(5),
  set_name: nonBlank(MAX_SET_NAME, 'set_name').optional(),
  search_for_problems: z.boolean().default(false),
  webhook_url: z.string().optional(),
  problem_type: z.enum(['mcq', 'frq', 'select_all', 'mixed']).default('mixed'),
  difficulty: z.enum(difficulties).default('medium'),
  /** Not in the specification: choose the engine (default: llm when configured, else offline). */
  engine,
});

const gradeBody = z.object({
  problem: z.object({
    problem_type: z.string().min(1).max(40),
    problem_statement: z.string().max(10_000),
    user_answer: z.string().max(MAX_ANSWER, `user_answer is limited to ${MAX_ANSWER} characters`),
    correct_answer: z.string().max(10_000).optional(),
    answer_choices: z.record(z.string(), z.string().max(2000)).optional(),
    scoring_details: z.string().max(10_000).optional(),
  }),
  engine,
});

function body(req: Request): unknown {
  return req.body === undefined ? {} : req.body;
}

export function practiceRoutes(practice: PracticeService, opts: { allowPrivateWebhooks: boolean }): Router {
  const r = Router();

  r.post('/interactives/practice/create', async (req, res) => {
    const b = parseOr422(createBody, body(req), ['body']);
    if (b.webhook_url !== undefined) {
      const why = checkWebhookUrl(b.webhook_url, opts.allowPrivateWebhooks);
      if (why) throw invalid(['body', 'webhook_url'], why, 'url_refused');
    }
    if (b.engine === 'llm' && !practice.llmConfigured) {
      throw invalid(['body', 'engine'], 'engine "llm" needs an LLM provider: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL', 'value_error');
    }
    const out = await practice.create(principalOf(req), b);
    res.json({
      success: true,
      set_id: out.set_id,
      status: 'pending',
      message: `Generating ${b.count} problems; poll GET /v1/interactives/practice/status/${out.set_id}`,
      timestamp: nowIso(),
    });
  });

  r.get('/interactives/practice/status/:set_id', async (req, res) => {
    res.json(await practice.status(principalOf(req), req.params.set_id));
  });

  r.post('/interactives/practice/grade', async (req, res) => {
    const b = parseOr422(gradeBody, body(req), ['body']);
    if (b.engine === 'llm' && !practice.llmConfigured) {
      throw invalid(['body', 'engine'], 'engine "llm" needs an LLM provider: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL', 'value_error');
    }
    let grade;
    try {
      grade = await practice.grade(b.problem, b.engine);
    } catch (err) {
      if (err instanceof GradingInputError) throw invalid(err.loc, err.message, 'missing');
      throw err;
    }
    // Paid only when graded (docs/billing.md); 402 when the balance is short.
    await chargeFor(req)?.();
    res.json({ success: true, ...grade, timestamp: nowIso() });
  });

  return r;
}
