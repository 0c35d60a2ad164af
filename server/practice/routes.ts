/** HTTP routes of practice sets (spec endpoints 9-11, list and delete): parse, call the domain, shape. */
import { Router, type Request } from 'express';
import * as z from 'zod';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { invalid, parseOr422 } from '../http/errors.ts';
import { pageQuery } from '../http/paging.ts';
import { idempotencyOf } from '../http/idempotency.ts';
import { nonBlank } from '../sources/request.ts';
import { nowIso } from '../time.ts';
import { checkWebhookUrl } from '../webhooks/ssrf.ts';
import { GradingInputError } from './grading/errors.ts';
import { MAX_COUNT } from './offline/limits.ts';
import { difficulties, type GradeResponse, type PracticeSetStatusResponse, type PracticeSetCreateResponse, type PracticeSetDeleteResponse, type PracticeSetListResponse } from './schema.ts';
import type { PracticeService } from './service.ts';

export const MAX_DESCRIPTION = 2000;
export const MAX_SET_NAME = 200;
const MAX_ANSWER = 20_000;

const engine = z.enum(['offline', 'llm']).optional();

export const createBody = z.object({
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

export const gradeBody = z.object({
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
    const raw = body(req);
    const b = parseOr422(createBody, raw, ['body']);
    if (b.webhook_url !== undefined) {
      const why = checkWebhookUrl(b.webhook_url, opts.allowPrivateWebhooks);
      if (why) throw invalid(['body', 'webhook_url'], why, 'url_refused');
    }
    if (b.engine === 'llm' && !practice.llmConfigured) {
      throw invalid(['body', 'engine'], 'engine "llm" needs an LLM provider: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL', 'value_error');
    }
    const p = principalOf(req);
    // Idempotency-Key: a retry with the same body replays this answer; nothing is reserved twice.
    const out = await practice.idempotency.once(p.keyId, idempotencyOf(req, raw), async (tx) => {
      const { set_id } = await practice.create(p, b, tx);
      const answer: PracticeSetCreateResponse = {
        success: true,
        set_id,
        status: 'pending',
        message: `Generating ${b.count} problems; poll GET /v1/interactives/practice/status/${set_id}`,
        timestamp: nowIso(),
      };
      return { status: 200, body: answer };
    });
    res.status(out.status).json(out.body);
  });

  r.get('/interactives/practice/list', async (req, res) => {
    const q = parseOr422(pageQuery, req.query, ['query']);
    const page = await practice.list(principalOf(req), q.page_token, q.page_size);
    const answer: PracticeSetListResponse = {
      success: true,
      message: `${page.sets.length} practice sets`,
      sets: page.sets,
      ...(page.next !== undefined ? { next_page_token: page.next } : {}),
    };
    res.json(answer);
  });

  r.delete('/interactives/practice/delete/:set_id', async (req, res) => {
    const out = await practice.delete(principalOf(req), req.params.set_id, chargeFor(req));
    const answer: PracticeSetDeleteResponse = {
      success: true,
      message: out.cancelled ? 'Practice set deleted; its generation was stopped' : 'Practice set deleted',
      ...out,
      timestamp: nowIso(),
    };
    res.json(answer);
  });

  r.get('/interactives/practice/status/:set_id', async (req, res) => {
    const answer: PracticeSetStatusResponse = await practice.status(principalOf(req), req.params.set_id);
    res.json(answer);
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
    const answer: GradeResponse = { success: true, ...grade, timestamp: nowIso() };
    res.json(answer);
  });

  return r;
}
