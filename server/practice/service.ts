/**
 * The practice-set domain: creating a set (its credit reservation, its row and its job in one
 * transaction), running the job (offline planner or LLM, one problem at a time, progress stored
 * as it goes), finishing it (settle or refund, webhook event in the same transaction), reading its
 * status, and grading answers. A key reaches only the sets it created.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import * as z from 'zod';
import type { Principal } from '../auth/keys.ts';
import type { CreditLedger } from '../billing/credits.ts';
import { priceOf, usd } from '../billing/prices.ts';
import { HttpError, invalid, notFound } from '../http/errors.ts';
import { IdempotencyStore } from '../http/idempotency.ts';
import { PaidJobs, UnreadableError, type Charge } from '../jobs/paid-jobs.ts';
import type { JobContext, JobWorker } from '../jobs/worker.ts';
import { LlmError, type LlmClient } from '../llm/client.ts';
import type { Logger } from '../logger.ts';
import { nowIso } from '../time.ts';
import type { Queryable } from '../storage/engine.ts';
import type { WebhookOutbox } from '../webhooks/outbox.ts';
import { WorkerTimeoutError, type WorkerPool } from '../workers/pool.ts';
import { GradingInputError } from './grading/errors.ts';
import { batchInputChars, batchOf, gradeBatchOperation, gradeInputChars, gradeOf, gradeOperation, type BatchInput } from './grading/operation.ts';
import type { BatchResult } from './grading/batch.ts';
import type { JournalSearch } from '../journals/search.ts';
import { gradeWithLlm, planLlmSet } from './llm.ts';
import { checkGradeWithCas } from './llm-checks.ts';
import { OFFLINE_ENGINE } from './offline/limits.ts';
import { practiceEndpoints } from './endpoints.ts';
import { difficulties, problemListSchema, type PracticeSetDeleteResponse, type PracticeSetListItem } from './schema.ts';
import { PracticeStore, type EngineChoice, type SetRequest, type SetRow } from './store.ts';
import type { Difficulty, GenerateRequest, GradeInput, GradeResult, PracticeProblem, SetProblemType } from './types.ts';

export const PRACTICE_JOB = 'practice_set';

/** Price of a set of `count` problems in micro-dollars, as its create endpoint declares it. */
export function practiceSetPriceMicros(count: number): number {
  return priceOf(practiceEndpoints.create.price, count);
}

export interface CreateSetInput {
  set_description: string;
  count: number;
  set_name?: string;
  search_for_problems: boolean;
  webhook_url?: string;
  problem_type: SetProblemType;
  difficulty: Difficulty;
  engine?: EngineChoice;
}

export interface StatusView {
  set_id: string;
  success: boolean;
  status: 'pending' | 'completed' | 'failed' | 'status_error';
  total_problems: number;
  completed_problems: number;
  timestamp: string;
  message: string;
  engine: string | null;
  set_name: string | null;
  created_at: string;
  response?: { set_id: string; set_name: string; problems: PracticeProblem[]; cost: number; engine: string };
}

export type GradeView = Omit<GradeResult, 'method' | 'confidence' | 'needs_review'> & {
  method: GradeResult['method'] | 'llm';
  confidence: 'high' | 'low';
  needs_review: boolean;
  engine: string;
  /** Which engine's verdict this is: the offline grader, the LLM, or the CAS overruling the LLM. */
  decided_by: 'offline' | 'llm' | 'cas';
  fallback_reason?: string;
};

/** A grade with its confidence settled: an LLM's judgement is not one the grader can check (low), unless the CAS confirmed it. */
function settled<G extends { confidence?: 'high' | 'low'; needs_review?: boolean }>(g: G, fallback: 'high' | 'low'): G & { confidence: 'high' | 'low'; needs_review: boolean } {
  const confidence = g.confidence ?? fallback;
  return { ...g, confidence, needs_review: g.needs_review ?? confidence === 'low' };
}

const storedRequest = z.object({
  description: z.string(),
  count: z.number().int().min(1).max(15),
  problem_type: z.enum(['mcq', 'frq', 'select_all', 'mixed']),
  difficulty: z.enum(difficulties),
  search_for_problems: z.boolean(),
  engine: z.enum(['offline', 'llm']),
  seed: z.number().int(),
});

export interface PracticeDeps {
  store: PracticeStore;
  jobs: JobWorker;
  outbox: WebhookOutbox;
  credits: CreditLedger;
  search: JournalSearch;
  llm?: LlmClient;
  logger: Logger;
  /** Threads for grading long answers off the event loop; without them every answer is graded inline. */
  workers?: WorkerPool;
}

/** Grade requests up to this many characters (answer, reference, rubric, question) are graded inline. */
const INLINE_GRADE_CHARS = 4 * 1024;
/**
 * A grade's time limit, in conversion limits of its size: a fresh thread first loads the grading
 * engines and reads WordNet's indexes (about a second), and a grade is bounded anyway
 * (MAX_WORD_PAIRS, MAX_WORDINGS), so the limit only stops a thread that is stuck.
 */
const GRADE_LIMIT_FACTOR = 4;
/** A batch's time limit grows by this much per answer (a grade takes a few ms; a rubric grade up to tens). */
const BATCH_MS_PER_ANSWER = 100;

export class PracticeService {
  readonly store: PracticeStore;
  /** Idempotency-Key records of creates (the route runs a create through `once`). */
  readonly idempotency: IdempotencyStore;
  /** The lifecycle sets share with videos: reservation, job, finish, status, delete. */
  private readonly sets: PaidJobs<SetRow>;

  constructor(private readonly deps: PracticeDeps) {
    this.store = deps.store;
    this.idempotency = new IdempotencyStore(deps.store.engine);
    this.sets = new PaidJobs({
      store: deps.store,
      what: 'Practice set',
      notFound,
      jobs: deps.jobs,
      credits: deps.credits,
      outbox: deps.outbox,
      logger: deps.logger,
      kind: PRACTICE_JOB,
      idField: 'set_id',
      reservation: practiceEndpoints.create.price.reservation,
      event: 'practice_set',
      noun: 'set',
      jobName: 'generation job',
    });
    this.sets.register(
      (ctx, id) => this.generate(ctx, id),
      (id, reason, tx) => this.finishFailed(id, `Generation stopped because of an internal error (${reason}); the reserved credit was refunded.`, null, tx),
    );
  }

  get llmConfigured(): boolean {
    return this.deps.llm !== undefined;
  }

  /**
   * Reserves the set's price, records it and queues its job, in one transaction (402 changes
   * nothing): `q`'s when given (the one that records an Idempotency-Key).
   */
  async create(p: Principal, input: CreateSetInput, q: Queryable = this.store.engine): Promise<{ set_id: string; engine: EngineChoice }> {
    const engine: EngineChoice = input.engine ?? (this.deps.llm ? 'llm' : 'offline');
    const id = randomUUID();
    const request: SetRequest = {
      description: input.set_description.trim(),
      count: input.count,
      problem_type: input.problem_type,
      difficulty: input.difficulty,
      search_for_problems: input.search_for_problems,
      engine,
      seed: randomInt(2 ** 31),
    };
    const setName = input.set_name?.trim() || null;
    const webhookUrl = input.webhook_url ?? null;
    await this.sets.create(
      p,
      id,
      practiceSetPriceMicros(input.count),
      (reservationId, tx) =>
        this.store.insert({ id, key_id: p.keyId, org_id: p.orgId, set_name: setName, request, webhook_url: webhookUrl, reservation_id: reservationId }, tx),
      q,
    );
    return { set_id: id, engine };
  }

  // ---- the job -------------------------------------------------------------------------------

  private async generate(ctx: JobContext<unknown>, id: string): Promise<void> {
    const row = await this.store.get(id);
    if (!row || row.status !== 'pending') return; // finished before a crash, or deleted
    let req: SetRequest;
    try {
      req = storedRequest.parse(JSON.parse(row.request));
    } catch {
      await this.finishFailed(id, 'The stored request of this set is unreadable; the reserved credit was refunded.');
      return;
    }
    let context: string[] | undefined;
    if (row.context !== null) context = JSON.parse(row.context) as string[];
    else if (req.search_for_problems) {
      context = await this.deps.search.excerpts(row.key_id, req.description, ctx.signal);
      await this.store.saveContext(id, context);
    }
    const gen: GenerateRequest = {
      description: req.description,
      count: req.count,
      problemType: req.problem_type,
      difficulty: req.difficulty,
      context: context && context.length ? context : undefined,
      seed: req.seed,
    };
    const done = (await this.store.problems(id)).length;
    if (req.engine === 'llm') await this.generateWithLlm(id, gen, done, ctx.signal);
    else await this.generateOffline(id, gen, done, ctx.signal, req.search_for_problems && !gen.context);
  }

  private async generateOffline(id: string, gen: GenerateRequest, from: number, signal: AbortSignal, searchedNothing: boolean): Promise<void> {
    // The offline engines (CAS, WordNet) load on first use: a service that never makes a set never pays for them.
    const { planSet, DuplicateProblemError } = await import('./offline/index.ts');
    const plan = planSet(gen);
    if (!plan.ok) {
      const note = searchedNothing ? ' (search_for_problems found no journal of this key matching the description.)' : '';
      await this.finishFailed(id, `${plan.message}${note} The reserved credit was refunded.`, OFFLINE_ENGINE);
      return;
    }
    await this.store.saveEngine(id, plan.engine, plan.setName);
    for (let i = from; i < plan.total; i++) {
      signal.throwIfAborted();
      let problem: PracticeProblem;
      try {
        problem = plan.next(i);
      } catch (err) {
        if (!(err instanceof DuplicateProblemError)) throw err;
        await this.finishFailed(id, `${err.message} The reserved credit was refunded.`, plan.engine);
        return;
      }
      await this.store.addProblem(id, i, problem);
      // Between problems the event loop serves requests (a CAS-heavy problem takes ~10-20 ms).
      await yieldToLoop();
    }
    await this.finishCompleted(id, plan.total);
  }

  private async generateWithLlm(id: string, gen: GenerateRequest, from: number, signal: AbortSignal): Promise<void> {
    const llm = this.deps.llm;
    if (!llm) {
      await this.finishFailed(id, 'This set was created for the LLM engine, but no LLM provider is configured now (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL).', 'llm');
      return;
    }
    const plan = planLlmSet(llm, gen);
    await this.store.saveEngine(id, plan.engine, plan.setName);
    const earlier = (await this.store.problems(id)).map((r) => JSON.parse(r.problem) as PracticeProblem);
    for (let i = from; i < plan.total; i++) {
      signal.throwIfAborted();
      let problem: PracticeProblem;
      try {
        problem = await plan.next(i, earlier, signal);
      } catch (err) {
        if (signal.aborted || !(err instanceof LlmError)) throw err;
        this.deps.logger.warn({ set_id: id, problem: i + 1, error: err.message }, 'LLM generation failed');
        await this.finishFailed(id, `LLM generation failed at problem ${i + 1} of ${plan.total} (engine ${plan.engine}): ${err.message.replace(/^refused: /, '')}. The reserved credit was refunded.`);
        return;
      }
      await this.store.addProblem(id, i, problem);
      earlier.push(problem);
    }
    await this.finishCompleted(id, plan.total);
  }

  /** Settles the set at the price of its `total` problems, marks it completed, queues its webhook (once). */
  private finishCompleted(id: string, total: number): Promise<void> {
    return this.sets.completed(
      id,
      () => practiceSetPriceMicros(total),
      (_row, cost, tx) => this.store.complete(id, cost, `Practice set completed: ${total} problems.`, tx),
    );
  }

  /** Refunds the set, marks it failed with `message`, queues its webhook (within `q`: the transaction that gives the job up). */
  private finishFailed(id: string, message: string, engine: string | null = null, q: Queryable = this.store.engine): Promise<void> {
    return this.sets.failed(id, (_row, tx) => this.store.fail(id, message, engine, tx), { message }, q);
  }

  // ---- status ------------------------------------------------------------------------------

  status(p: Principal, id: string): Promise<StatusView> {
    return this.sets.status(p, id, (row) => this.view(row), (row, reason) => ({
        set_id: row.id,
        success: false,
        status: 'status_error',
        total_problems: Number.isInteger(row.total_problems) ? row.total_problems : 0,
        completed_problems: Number.isInteger(row.completed_problems) ? row.completed_problems : 0,
        timestamp: nowIso(),
        message: `The status of this set cannot be determined: ${reason}. Create the set again.`,
      engine: row.engine,
      set_name: row.set_name,
      created_at: row.created_at,
    }));
  }

  private async view(row: SetRow): Promise<StatusView> {
    storedRequest.parse(JSON.parse(row.request));
    // Field order as in the specification's table (2.12), then ours.
    const base = (success: boolean, status: StatusView['status'], message: string) => ({
      set_id: row.id,
      success,
      status,
      total_problems: row.total_problems,
      completed_problems: row.completed_problems,
      timestamp: nowIso(),
      message,
      engine: row.engine,
      set_name: row.set_name,
      created_at: row.created_at,
    });
    switch (row.status) {
      case 'pending': {
        const pending = await this.sets.pendingJob(row);
        if ('now' in pending) return this.view(pending.now);
        const { job } = pending;
        const message =
          row.completed_problems === 0
            ? job.state === 'queued' && job.attempts === 0
              ? 'Waiting for a worker'
              : 'Generating the first problem'
            : `Generated ${row.completed_problems} of ${row.total_problems} problems`;
        return base(true, 'pending', message);
      }
      case 'completed': {
        const problems = problemListSchema.parse((await this.store.problems(row.id)).map((r) => JSON.parse(r.problem)));
        if (problems.length !== row.total_problems) throw new UnreadableError(`the set is completed but holds ${problems.length} of its ${row.total_problems} problems`);
        const set_name = row.set_name ?? 'Practice set';
        const engine = row.engine ?? OFFLINE_ENGINE;
        return {
          ...base(true, 'completed', row.message ?? 'Practice set completed.'),
          response: { set_id: row.id, set_name, problems, cost: usd(row.cost_micros ?? 0), engine },
        };
      }
      case 'failed':
        return base(false, 'failed', row.message ?? 'Generation failed.');
      default:
        throw new UnreadableError(`its stored status "${String(row.status).slice(0, 40)}" is not one this service writes`);
    }
  }

  // ---- list and delete ----------------------------------------------------------------------

  /** The key's sets, newest first, from before `pageToken` (the previous page's next_page_token). */
  list(p: Principal, pageToken: number | undefined, pageSize: number): Promise<{ items: PracticeSetListItem[]; next?: number }> {
    return this.sets.list(p, pageToken, pageSize, (r) => ({
      set_id: r.id,
      set_name: r.set_name,
      status: r.status,
      total_problems: r.total_problems,
      completed_problems: r.completed_problems,
      engine: r.engine,
      cost: r.status === 'pending' ? null : usd(r.cost_micros ?? 0),
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  }

  /**
   * Deletes a set of this key (404 otherwise) with its problems, paid first (`charge`; 402 deletes
   * nothing). A set still pending has its job cancelled and its reservation settled at the price
   * of the problems already made: the rest is refunded. No webhook event is sent for a deletion.
   */
  async delete(p: Principal, id: string, charge?: Charge): Promise<Omit<PracticeSetDeleteResponse, 'success' | 'message' | 'timestamp'>> {
    const d = await this.sets.cancelAndDelete(p, id, charge, (row) => practiceSetPriceMicros(row.completed_problems));
    return { set_id: d.row.id, status: d.row.status, cancelled: d.cancelled, cost: usd(d.costMicros), refunded: usd(d.refundedMicros) };
  }

  // ---- grading -----------------------------------------------------------------------------

  /**
   * Grades one answer. Choice problems are graded exactly offline. With an LLM configured, free
   * response is graded offline first and a `low`-confidence grade goes to the LLM (engine "llm":
   * every free-response answer does; "offline": none); a mathematical reference is then checked
   * by the CAS, whose grade is returned (engine "offline", decided_by "cas") when the two disagree
   * about full credit. `decided_by` says whose verdict it is. When the LLM fails, the
   * offline grader answers with `fallback_reason`, or, when it cannot (no reference answer or
   * rubric), a 502 says both reasons. GradingInputError (422) is left to the route.
   */
  async grade(input: GradeInput, engine?: EngineChoice, signal?: AbortSignal, orgId?: string): Promise<GradeView> {
    const type = input.problem_type.toLowerCase().replace(/[\s-]+/g, '_');
    const choice = ['mcq', 'multiple_choice', 'select_all', 'multi_select'].includes(type);
    const llm = this.deps.llm;
    if (!llm || choice || engine === 'offline') return this.offlineView(input, orgId);
    // Without an explicit engine, the offline grader goes first and a `low` grade goes to the LLM;
    // engine "llm" sends every free-response answer to it. A problem the offline grader cannot
    // grade (no reference, no rubric) goes to the LLM either way.
    let offline: GradeView | undefined;
    if (engine !== 'llm') {
      try {
        offline = await this.offlineView(input, orgId);
      } catch (err) {
        if (!(err instanceof GradingInputError)) throw err;
      }
      if (offline && offline.confidence === 'high') return offline;
    }
    let fallback: string | undefined;
    try {
      const graded = await gradeWithLlm(llm, input, signal);
      // A mathematical reference is checked by the CAS, which decides when the two disagree.
      const checked = await checkGradeWithCas(input, graded, llm.engine);
      const decided = checked.overruled ? 'cas' : 'llm';
      const note = offline ? `The offline grader was not sure (${offline.score}/${offline.max_score}, low confidence); the LLM graded it. ` : '';
      return { ...settled(checked.grade, 'low'), explanation: `${note}${checked.grade.explanation}`, engine: checked.overruled ? OFFLINE_ENGINE : llm.engine, decided_by: decided };
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      fallback = `LLM grading failed: ${err.message.replace(/^refused: /, '')}`;
      this.deps.logger.warn({ error: err.message }, 'LLM grading failed; using the offline grader');
    }
    try {
      return { ...(offline ?? (await this.offlineView(input, orgId))), fallback_reason: fallback };
    } catch (err) {
      if (err instanceof GradingInputError) {
        throw new HttpError(502, `${fallback}; the offline grader cannot take over: ${err.message}`);
      }
      throw err;
    }
  }

  private async offlineView(input: GradeInput, orgId?: string): Promise<GradeView> {
    return { ...settled(await this.gradeOffline(input, orgId), 'high'), engine: OFFLINE_ENGINE, decided_by: 'offline' };
  }

  /**
   * A class's answers to one problem, graded offline and grouped (grading/batch.ts): in the worker
   * pool when there is one (500 answers take seconds, in `orgId`'s turn), under a time limit of the
   * batch's size.
   */
  async gradeBatch(input: BatchInput, orgId?: string): Promise<BatchResult> {
    const workers = this.deps.workers;
    if (!workers) return (await import('./grading/batch.ts')).gradeBatch(input.problem, input.answers, input.reviews);
    // Each answer is a grade of its own: its time is counted per answer, on top of the characters.
    const limitMs = GRADE_LIMIT_FACTOR * workers.timeLimitMs(batchInputChars(input)) + input.answers.length * BATCH_MS_PER_ANSWER;
    try {
      return batchOf(await workers.run(gradeBatchOperation, input, limitMs, orgId));
    } catch (err) {
      if (err instanceof WorkerTimeoutError) {
        throw invalid(['body', 'answers'], `the answers could not be graded within their time limit (${(err.limitMs / 1000).toFixed(1)} s for this size and count)`, 'value_error.time_limit');
      }
      throw err;
    }
  }

  /** The offline grade: inline for a small request (a few ms), in the worker pool (in `orgId`'s turn) for a long one. */
  private async gradeOffline(input: GradeInput, orgId?: string): Promise<GradeResult> {
    const chars = gradeInputChars(input);
    const workers = this.deps.workers;
    // The grader loads on first use, like planSet.
    if (!workers || chars <= INLINE_GRADE_CHARS) return (await import('./grading/index.ts')).gradeAnswer(input);
    const limitMs = GRADE_LIMIT_FACTOR * workers.timeLimitMs(chars);
    try {
      return gradeOf(await workers.run(gradeOperation, input, limitMs, orgId));
    } catch (err) {
      if (err instanceof WorkerTimeoutError) {
        throw invalid(['body', 'problem', 'user_answer'], `the answer could not be graded within its time limit (${(err.limitMs / 1000).toFixed(1)} s for this size)`, 'value_error.time_limit');
      }
      throw err;
    }
  }
}
