/** Routes of practice sets (endpoints.ts): call the domain, shape the answer. */
import { Router } from 'express';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { route } from '../http/endpoint.ts';
import { invalid } from '../http/errors.ts';
import { idempotencyOf } from '../http/idempotency.ts';
import { listRoute } from '../http/paging.ts';
import { nowIso } from '../time.ts';
import { checkWebhookUrl } from '../webhooks/ssrf.ts';
import { practiceEndpoints as e } from './endpoints.ts';
import { GradingInputError } from './grading/errors.ts';
import { AREAS, CATALOGUE } from './offline/school/catalogue.ts';
import type { GradeBatchResponse, GradeResponse, PracticeTopicsResponse, PracticeSetCreateResponse, PracticeSetDeleteResponse, PracticeSetStatusResponse } from './schema.ts';
import type { PracticeService } from './service.ts';

export function practiceRoutes(practice: PracticeService, opts: { allowPrivateWebhooks: boolean }): Router {
  const r = Router();
  const needsLlm = (engine: string | undefined) => {
    if (engine === 'llm' && !practice.llmConfigured) {
      throw invalid(['body', 'engine'], 'engine "llm" needs an LLM provider: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL', 'value_error');
    }
  };

  route(r, e.create, async (call, res) => {
    const b = call.body;
    if (b.webhook_url !== undefined) {
      const why = checkWebhookUrl(b.webhook_url, opts.allowPrivateWebhooks);
      if (why) throw invalid(['body', 'webhook_url'], why, 'url_refused');
    }
    needsLlm(b.engine);
    const p = principalOf(call.req);
    // Idempotency-Key: a retry with the same body replays this answer; nothing is reserved twice.
    const out = await practice.idempotency.once(p.keyId, idempotencyOf(call.req, call.raw), async (tx) => {
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

  listRoute(r, e.list, 'sets', (n) => `${n} practice sets`, (req, token, size) => practice.list(principalOf(req), token, size));

  route(r, e.delete, async (call, res) => {
    const out = await practice.delete(principalOf(call.req), call.param('set_id'), chargeFor(call.req));
    const answer: PracticeSetDeleteResponse = {
      success: true,
      message: out.cancelled ? 'Practice set deleted; its generation was stopped' : 'Practice set deleted',
      ...out,
      timestamp: nowIso(),
    };
    res.json(answer);
  });

  route(r, e.status, async (call, res) => {
    const answer: PracticeSetStatusResponse = await practice.status(principalOf(call.req), call.param('set_id'));
    res.json(answer);
  });

  // The catalogue is metadata (no CAS): listing it loads no generator.
  const topics = CATALOGUE.map((t) => ({ id: t.id, name: t.name, area: t.area, area_name: AREAS[t.area] ?? t.area, levels: t.levels, examples: t.examples }));
  route(r, e.topics, async (_call, res) => {
    const answer: PracticeTopicsResponse = { success: true, count: topics.length, topics, timestamp: nowIso() };
    res.json(answer);
  });

  route(r, e.grade, async (call, res) => {
    const b = call.body;
    needsLlm(b.engine);
    let grade;
    try {
      grade = await practice.grade(b.problem, b.engine, undefined, principalOf(call.req).orgId);
    } catch (err) {
      if (err instanceof GradingInputError) throw invalid(err.loc, err.message, 'missing');
      throw err;
    }
    // Paid only when graded (docs/billing.md); 402 when the balance is short.
    await chargeFor(call.req)?.();
    const answer: GradeResponse = { success: true, ...grade, timestamp: nowIso() };
    res.json(answer);
  });

  route(r, e.gradeBatch, async (call, res) => {
    const b = call.body;
    let batch;
    try {
      batch = await practice.gradeBatch({ problem: b.problem, answers: b.answers, ...(b.reviews ? { reviews: b.reviews } : {}) }, principalOf(call.req).orgId);
    } catch (err) {
      if (err instanceof GradingInputError) throw invalid(err.loc, err.message, 'value_error');
      throw err;
    }
    // Priced per answer graded (docs/billing.md); 402 when the balance is short.
    await chargeFor(call.req, b.answers.length)?.();
    const answer: GradeBatchResponse = {
      success: true,
      grades: batch.grades.map((g) => ({ ...g, confidence: g.confidence ?? 'high', needs_review: g.needs_review ?? false })),
      groups: batch.groups,
      engine: 'offline',
      timestamp: nowIso(),
    };
    res.json(answer);
  });

  return r;
}
