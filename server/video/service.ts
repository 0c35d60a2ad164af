/**
 * The video domain: creating a video (credit reservation, row and job in one transaction), the
 * render job (reads the journal or text once, stores the outline, runs the restartable offline
 * engine in DATA_DIR/videos/{id}/, writes throttled progress), finishing it (settle or refund and
 * the webhook event in the same transaction), the status view of spec 2.13, and the files a
 * finished video serves. A key reaches only the videos it created.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import type { Principal } from '../auth/keys.ts';
import type { CreditLedger } from '../billing/credits.ts';
import { priceOf, usd } from '../billing/prices.ts';
import { HttpError, notFound } from '../http/errors.ts';
import type { JobContext, JobWorker } from '../jobs/worker.ts';
import { DEFAULT_IMPORT_TITLE, DEFAULT_TITLE, type JournalService } from '../journals/service.ts';
import type { Logger } from '../logger.ts';
import { nowIso } from '../time.ts';
import type { Queryable } from '../storage/engine.ts';
import type { WebhookOutbox } from '../webhooks/outbox.ts';
import type { RenderResult } from './engine/index.ts';
import { IdempotencyStore } from '../http/idempotency.ts';
import { flattenInput, SourceTextError, type PMJSON, type SourceInput } from '../sources/text-blocks.ts';
import { buildOutline, type Outline } from './outline.ts';
import type { VideoDeleteResponse, VideoListItem } from './schema.ts';
import { VideoStore, type VideoRequest, type VideoRow } from './store.ts';

export const VIDEO_JOB = 'video_render';
export const VIDEO_CREATE_ENDPOINT = 'POST /video/create' as const;
/** Longest `text` accepted by POST /v1/video/create (characters). */
export const MAX_VIDEO_TEXT_CHARS = 100_000;
/** Progress is written to the store at most this often while a render runs. */
export const PROGRESS_WRITE_MS = 200;

/** Price of one video in micro-dollars, from the billing price table. */
export function videoPriceMicros(): number {
  return priceOf(VIDEO_CREATE_ENDPOINT);
}

export interface VideoOptions {
  /** Where each video's workDir lives: `${videosDir}/${id}/`. */
  videosDir: string;
  /** The MP4 is inlined as b64_video only up to this size (bytes). */
  b64MaxBytes: number;
  ffmpegThreads: number;
  /** Base of s3_url, captions_url and source URLs; set once the server knows its port. */
  publicBaseUrl: string;
}

export interface VideoDeps {
  store: VideoStore;
  jobs: JobWorker;
  outbox: WebhookOutbox;
  credits: CreditLedger;
  journals: JournalService;
  logger: Logger;
  options: VideoOptions;
}

export interface CreateVideoInput {
  journal_id?: string;
  text?: string;
  title?: string;
  voice: string;
  max_duration_seconds: number;
  webhook_url?: string;
}

/** A source the video narrates: a journal block or a block of the submitted text. */
interface StoredSource {
  kind: 'journal' | 'text';
  /** Journal id (journal sources). */
  journal_id?: string;
  block_id: string;
  content: string;
}

/** The outline a render uses, stored once so a resumed job renders the same video. */
interface StoredOutline {
  outline: Outline;
  /** Block id -> its text, for `sources`. */
  blocks: Record<string, string>;
  journal_id?: string;
}

interface StoredResult {
  title: string;
  transcript: string;
  model: string;
  duration_seconds: number;
  narration_seconds: number;
  size_bytes: number;
  truncated: boolean;
  notes: string[];
  sources: StoredSource[];
  chapters: { heading: string; start: number; end: number; source_block_ids: string[] }[];
}

export interface VideoResult {
  success: boolean;
  error: string;
  s3_url: string;
  b64_video: string;
  title: string;
  transcript: string;
  sources: { url: string; content: string }[];
  cost: number;
  model: string;
  timestamp: string;
  // ours, beyond the specification
  captions_url: string;
  duration_seconds: number;
  narration_seconds: number;
  size_bytes: number;
  truncated: boolean;
  notes: string[];
  chapters: StoredResult['chapters'];
}

export interface VideoStatusView {
  success: boolean;
  status: 'pending' | 'completed' | 'failed' | 'status_error';
  message: string;
  completion_percentage: number;
  video_id: string;
  response?: VideoResult;
  error?: string;
  timestamp: string;
  created_at: string;
}

const storedRequest = z.object({
  source: z.enum(['journal', 'text']),
  journal_id: z.string().optional(),
  text: z.string().optional(),
  title: z.string().optional(),
  voice: z.string(),
  max_duration_seconds: z.number().positive().max(600),
});

/** Something stored for a video cannot be read: its status is reported as status_error. */
class Unreadable extends Error {}

export class VideoService {
  readonly store: VideoStore;
  readonly options: VideoOptions;
  /** Idempotency-Key records of creates (the route runs a create through `once`). */
  readonly idempotency: IdempotencyStore;

  constructor(private readonly deps: VideoDeps) {
    this.store = deps.store;
    this.idempotency = new IdempotencyStore(deps.store.engine);
    this.options = deps.options;
    deps.jobs.register<{ video_id: string }>(VIDEO_JOB, {
      run: (ctx) => this.render(ctx),
      onGiveUp: async (_job, payload, reason, tx) => {
        if (payload?.video_id) await this.finishFailed(payload.video_id, `Rendering stopped: ${reason}.`, tx);
      },
    });
  }

  workDir(id: string): string {
    return join(this.options.videosDir, id);
  }

  /**
   * Checks the journal (404 for unknown or foreign), reserves the price, records the video and
   * queues its job, in one transaction (402 changes nothing): `q`'s when given (the one that
   * records an Idempotency-Key).
   */
  async create(p: Principal, input: CreateVideoInput, q: Queryable = this.store.engine): Promise<{ video_id: string }> {
    // Read in `q`: inside a transaction the engine itself must not be used.
    if (input.journal_id !== undefined && !(await this.deps.journals.store.findOwned(input.journal_id, p.keyId, q))) throw notFound('Journal');
    const id = randomUUID();
    const request: VideoRequest = {
      source: input.journal_id !== undefined ? 'journal' : 'text',
      ...(input.journal_id !== undefined ? { journal_id: input.journal_id } : { text: input.text }),
      ...(input.title ? { title: input.title } : {}),
      voice: input.voice,
      max_duration_seconds: input.max_duration_seconds,
    };
    await q.transaction(async (tx) => {
      const reservation = await this.deps.credits.reserve(p.orgId, videoPriceMicros(), `video ${id}`, tx);
      await this.store.insert({ id, key_id: p.keyId, org_id: p.orgId, request, webhook_url: input.webhook_url ?? null, reservation_id: reservation.id }, tx);
      const job = await this.deps.jobs.enqueue({ kind: VIDEO_JOB, payload: { video_id: id } }, tx);
      await this.store.attachJob(id, job.id, tx);
    });
    return { video_id: id };
  }

  // ---- the job -------------------------------------------------------------------------------

  private async render(ctx: JobContext<{ video_id: string }>): Promise<void> {
    try {
      await this.renderOnce(ctx);
    } finally {
      // Deleted while rendering (perhaps by a request on another instance, which removed the
      // files before this run stopped writing them): leave nothing behind.
      if (!(await this.store.get(ctx.payload.video_id).catch(() => true))) await rm(this.workDir(ctx.payload.video_id), { recursive: true, force: true });
    }
  }

  private async renderOnce(ctx: JobContext<{ video_id: string }>): Promise<void> {
    const id = ctx.payload.video_id;
    const row = await this.store.get(id);
    if (!row || row.status !== 'pending') return; // finished before a crash
    let req: VideoRequest;
    try {
      req = storedRequest.parse(JSON.parse(row.request));
    } catch {
      await this.finishFailed(id, 'The stored request of this video is unreadable.');
      return;
    }
    let stored: StoredOutline;
    if (row.outline) {
      stored = JSON.parse(row.outline) as StoredOutline;
    } else {
      try {
        stored = await this.readSource(row, req);
      } catch (err) {
        if (err instanceof SourceTextError || err instanceof SourceGone) {
          await this.finishFailed(id, err instanceof SourceTextError ? `Nothing to narrate: ${err.message}.` : err.message);
          return;
        }
        throw err;
      }
      await this.store.saveOutline(id, stored);
    }

    const workDir = this.workDir(id);
    // A process killed mid-render may leave half-written files (and an orphaned ffmpeg still
    // writing one): unlink them so this run writes fresh files. Finished pieces are kept.
    if (ctx.attempt > 1) await removeTmpFiles(workDir);
    let lastWrite = 0;
    const onProgress = (pct: number) => {
      const now = Date.now();
      if (now - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = now;
      // Throttled and best effort: a lost progress write only shows an older percentage.
      this.store.progress(id, Math.min(99, pct)).catch((err) => this.deps.logger.warn({ err, video_id: id }, 'video progress write failed'));
    };
    let result: RenderResult;
    try {
      // The render engines (canvas, speech, ffmpeg) load with the first video.
      const { renderVideo } = await import('./engine/index.ts');
      result = await renderVideo(stored.outline, {
        workDir,
        voice: req.voice,
        maxDurationSeconds: req.max_duration_seconds,
        ffmpegThreads: this.options.ffmpegThreads,
        signal: ctx.signal,
        onProgress,
      });
    } catch (err) {
      if (ctx.signal.aborted) throw err; // shutdown or lost lease: the job layer decides
      const why = err instanceof Error ? err.message : String(err);
      this.deps.logger.warn({ video_id: id, error: why }, 'video render failed');
      await this.finishFailed(id, `Rendering failed: ${why.slice(0, 500)}`);
      return;
    }
    const { size } = await stat(result.mp4Path);
    const sources: StoredSource[] = [];
    const seen = new Set<string>();
    for (const s of result.slides) {
      for (const b of s.sourceBlockIds) {
        if (seen.has(b)) continue;
        seen.add(b);
        sources.push({
          kind: stored.journal_id ? 'journal' : 'text',
          ...(stored.journal_id ? { journal_id: stored.journal_id } : {}),
          block_id: b,
          content: stored.blocks[b] ?? '',
        });
      }
    }
    await this.finishCompleted(id, {
      title: stored.outline.title,
      transcript: result.transcript,
      model: result.engine,
      duration_seconds: result.durationSeconds,
      narration_seconds: result.narrationSeconds,
      size_bytes: size,
      truncated: result.truncated,
      notes: result.notes,
      sources,
      chapters: result.slides.map((s) => ({ heading: s.heading, start: s.start, end: s.end, source_block_ids: s.sourceBlockIds })),
    });
  }

  /** Reads the journal (as it is now) or the stored text and builds the outline. */
  private async readSource(row: VideoRow, req: VideoRequest): Promise<StoredOutline> {
    let input: SourceInput;
    let title = req.title;
    if (req.source === 'journal') {
      const journal = await this.deps.journals.store.findById(req.journal_id ?? '');
      if (!journal || journal.key_id !== row.key_id) throw new SourceGone('The journal was deleted before the video was rendered.');
      input = { doc: (await this.deps.journals.model(journal)).model as PMJSON };
      if (!title && journal.title !== DEFAULT_TITLE && journal.title !== DEFAULT_IMPORT_TITLE) title = journal.title;
    } else {
      input = { text: req.text ?? '' };
    }
    const outline = buildOutline(input, { title, maxDurationSeconds: req.max_duration_seconds });
    const blocks: Record<string, string> = {};
    for (const b of flattenInput(input)) {
      if (!b.id) continue;
      blocks[b.id] = blocks[b.id] ? `${blocks[b.id]}\n${b.text}` : b.text;
    }
    return { outline, blocks, ...(req.source === 'journal' ? { journal_id: req.journal_id } : {}) };
  }

  /**
   * Settles the reservation, marks the video completed and queues its webhook, atomically. The
   * video's row is locked first: a worker that lost its lease and the one that took over cannot
   * both finish it.
   */
  private finishCompleted(id: string, result: StoredResult): Promise<void> {
    return this.store.engine.transaction(async (tx) => {
      const row = await this.store.getForUpdate(id, tx);
      if (!row || row.status !== 'pending') return;
      const cost = row.reservation_id ? (await this.deps.credits.settle(row.reservation_id, videoPriceMicros(), tx)).cost_micros : 0;
      const secs = result.duration_seconds.toFixed(1);
      await this.store.complete(id, result, cost, `Video completed: ${secs} s, ${result.chapters.length} slides.`, tx);
      await this.notify(row, 'completed', undefined, tx);
    });
  }

  /**
   * Refunds the reservation, marks the video failed and queues its webhook, atomically (within
   * `q` when given: the transaction that gives the job up); drops its files once committed.
   */
  private finishFailed(id: string, error: string, q: Queryable = this.store.engine): Promise<void> {
    return q.transaction(async (tx) => {
      const row = await this.store.getForUpdate(id, tx);
      if (!row || row.status !== 'pending') return;
      if (row.reservation_id && (await this.deps.credits.reservation(row.reservation_id, tx))?.status === 'held') await this.deps.credits.refund(row.reservation_id, tx);
      await this.store.fail(id, error, `${error} The reserved credit was refunded.`, tx);
      await this.notify(row, 'failed', error, tx);
      tx.afterCommit(() => void rm(this.workDir(id), { recursive: true, force: true }).catch(() => {}));
    });
  }

  private async notify(row: VideoRow, status: 'completed' | 'failed', error: string | undefined, tx: Queryable): Promise<void> {
    if (!row.webhook_url) return;
    await this.deps.outbox.enqueue(
      {
        orgId: row.org_id,
        url: row.webhook_url,
        type: `video.${status}`,
        data: { video_id: row.id, status, ...(error ? { error } : {}) },
      },
      tx,
    );
  }

  // ---- list and delete ----------------------------------------------------------------------

  /** The key's videos, newest first, from before `pageToken` (the previous page's next_page_token). */
  async list(p: Principal, pageToken: number | undefined, pageSize: number): Promise<{ videos: VideoListItem[]; next?: number }> {
    const page = await this.store.page(p.keyId, pageToken, pageSize);
    const videos = page.rows.map((r) => {
      const req = parseOrUndefined(r.request) as Partial<VideoRequest> | undefined;
      const result = r.result ? (parseOrUndefined(r.result) as Partial<StoredResult> | undefined) : undefined;
      return {
        video_id: r.id,
        title: result?.title ?? req?.title ?? null,
        source: req?.source === 'journal' ? ('journal' as const) : ('text' as const),
        journal_id: req?.journal_id ?? null,
        status: r.status,
        completion_percentage: Number(r.completion_percentage) || 0,
        cost: r.status === 'pending' ? null : usd(r.cost_micros ?? 0),
        created_at: r.created_at,
        updated_at: r.updated_at,
      };
    });
    return { videos, next: page.next };
  }

  /**
   * Deletes a video of this key (404 otherwise) in one transaction that pays for the deletion
   * first (`charge`; 402 deletes nothing). A video still pending has its job cancelled and its
   * reservation refunded in full: a video is one piece of work, and none of it was delivered.
   * Its files under DATA_DIR/videos/{id}/ are removed once that commits and a run of its job in
   * this process has stopped. No webhook event is sent for a deletion.
   */
  async delete(p: Principal, id: string, charge?: (q: Queryable) => unknown): Promise<Omit<VideoDeleteResponse, 'success' | 'message' | 'timestamp'>> {
    let jobId: string | undefined;
    const out = await this.store.engine.transaction(async (tx) => {
      const row = await this.store.getForUpdate(id, tx);
      if (!row || row.key_id !== p.keyId) throw notFound('Video');
      await charge?.(tx);
      let cancelled = false;
      let refunded = 0;
      if (row.status === 'pending') {
        if (row.job_id && (await this.deps.jobs.cancel(row.job_id, 'the video was deleted', tx))) {
          cancelled = true;
          jobId = row.job_id;
        }
        const held = row.reservation_id ? await this.deps.credits.reservation(row.reservation_id, tx) : undefined;
        if (held?.status === 'held') {
          await this.deps.credits.refund(held.id, tx);
          refunded = held.amount_micros;
        }
      }
      await this.store.delete(id, tx);
      return { video_id: row.id, status: row.status, cancelled, cost: usd(row.status === 'pending' ? 0 : (row.cost_micros ?? 0)), refunded: usd(refunded) };
    });
    if (jobId) await this.deps.jobs.stopped(jobId);
    await rm(this.workDir(id), { recursive: true, force: true });
    return out;
  }

  // ---- status and files ----------------------------------------------------------------------

  async status(p: Principal, id: string): Promise<VideoStatusView> {
    const row = await this.store.findOwned(id, p.keyId);
    if (!row) throw notFound('Video');
    try {
      return await this.view(row);
    } catch (err) {
      if (!(err instanceof Unreadable) && !(err instanceof SyntaxError) && !(err instanceof z.ZodError)) throw err;
      const reason = err instanceof Unreadable ? err.message : 'its stored record is unreadable';
      this.deps.logger.error({ video_id: id, reason }, 'video status cannot be determined');
      return {
        success: false,
        status: 'status_error',
        message: `The status of this video cannot be determined: ${reason}. Create the video again.`,
        completion_percentage: Number(row.completion_percentage) || 0,
        video_id: row.id,
        error: reason,
        timestamp: nowIso(),
        created_at: row.created_at,
      };
    }
  }

  private base(_row: VideoRow): string {
    return `${this.options.publicBaseUrl}/v1/video`;
  }

  private sourceUrl(row: VideoRow, s: StoredSource): string {
    if (s.kind === 'journal') return `${this.options.publicBaseUrl}/journals/${s.journal_id}#block-${encodeURIComponent(s.block_id)}`;
    return `${this.base(row)}/status/${row.id}#${encodeURIComponent(s.block_id)}`;
  }

  private async view(row: VideoRow): Promise<VideoStatusView> {
    storedRequest.parse(JSON.parse(row.request));
    const common = { video_id: row.id, timestamp: nowIso(), created_at: row.created_at };
    switch (row.status) {
      case 'pending': {
        const job = row.job_id ? await this.deps.jobs.store.get(row.job_id) : undefined;
        if (!job) throw new Unreadable('the video is pending but its render job is missing');
        if (job.state === 'done' || job.state === 'failed') {
          // Two reads, not one snapshot: the video may have been finished in between.
          const now = await this.store.get(row.id);
          if (now && now.status !== 'pending') return this.view(now);
        }
        if (job.state === 'done' || job.state === 'failed') throw new Unreadable(`the video is pending but its render job has ${job.state === 'done' ? 'ended' : 'failed'}`);
        const pct = Number(row.completion_percentage) || 0;
        let message: string;
        if (job.state === 'queued' && job.attempts === 0) message = 'Waiting for a worker';
        else if (pct < 40) message = 'Speaking the narration';
        else if (pct < 55) message = 'Drawing the slides';
        else if (pct < 95) message = 'Encoding the video segments';
        else message = 'Assembling the video';
        if (job.attempts > 1) message += ' (resumed after a restart)';
        return { success: true, status: 'pending', message, completion_percentage: pct, ...common };
      }
      case 'completed': {
        if (!row.result) throw new Unreadable('the video is completed but its result is missing');
        const r = JSON.parse(row.result) as StoredResult;
        const mp4 = join(this.workDir(row.id), 'video.mp4');
        let size: number;
        try {
          size = (await stat(mp4)).size;
        } catch {
          throw new Unreadable('the video is completed but its file is missing');
        }
        const inline = size <= this.options.b64MaxBytes;
        const b64 = inline ? (await readFile(mp4)).toString('base64') : '';
        const message =
          (row.message ?? 'Video completed.') +
          (inline ? '' : ` The video is ${size} bytes, above the ${this.options.b64MaxBytes}-byte limit for b64_video: download it from s3_url with your API key.`);
        const response: VideoResult = {
          success: true,
          error: '',
          s3_url: `${this.base(row)}/download/${row.id}`,
          b64_video: b64,
          title: r.title,
          transcript: r.transcript,
          sources: r.sources.map((s) => ({ url: this.sourceUrl(row, s), content: s.content })),
          cost: usd(row.cost_micros ?? 0),
          model: r.model,
          timestamp: row.completed_at ?? row.updated_at,
          captions_url: `${this.base(row)}/captions/${row.id}`,
          duration_seconds: r.duration_seconds,
          narration_seconds: r.narration_seconds,
          size_bytes: size,
          truncated: r.truncated,
          notes: r.notes,
          chapters: r.chapters,
        };
        return { success: true, status: 'completed', message, completion_percentage: 100, ...common, response };
      }
      case 'failed': {
        const error = row.error ?? 'Rendering failed.';
        return { success: false, status: 'failed', message: row.message ?? error, completion_percentage: Number(row.completion_percentage) || 0, ...common, error };
      }
      default:
        throw new Unreadable(`its stored status "${String(row.status).slice(0, 40)}" is not one this service writes`);
    }
  }

  /** Path of a finished video's MP4 or captions; 404 for unknown or foreign ids, 409 before it is done. */
  async file(p: Principal, id: string, which: 'video' | 'captions'): Promise<string> {
    const row = await this.store.findOwned(id, p.keyId);
    if (!row) throw notFound('Video');
    if (row.status !== 'completed') {
      throw new HttpError(409, `The video is ${row.status === 'pending' ? 'still rendering' : row.status}; files exist only for completed videos`, { status: row.status });
    }
    const path = join(this.workDir(id), which === 'video' ? 'video.mp4' : 'captions.vtt');
    try {
      await stat(path);
    } catch {
      throw new HttpError(410, 'The file of this video is no longer stored');
    }
    return path;
  }
}

class SourceGone extends Error {}

async function removeTmpFiles(workDir: string): Promise<void> {
  for (const dir of [workDir, join(workDir, '.parts')]) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue;
    }
    for (const f of names) if (f.endsWith('.tmp')) await rm(join(dir, f), { force: true });
  }
}

function parseOrUndefined(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
