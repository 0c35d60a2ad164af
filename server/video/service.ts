/**
 * The video domain: creating a video (credit reservation, row and job in one transaction, the
 * lifecycle practice sets share: server/jobs/paid-jobs.ts), its render job (render.ts), finishing
 * it (settle or refund and the webhook event in the same transaction), the status view of spec
 * 2.13, and the files a finished video serves. A key reaches only the videos it created.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Principal } from '../auth/keys.ts';
import type { CreditLedger } from '../billing/credits.ts';
import { priceOf, usd } from '../billing/prices.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { IdempotencyStore } from '../http/idempotency.ts';
import { PaidJobs, UnreadableError, type Charge } from '../jobs/paid-jobs.ts';
import type { JobWorker } from '../jobs/worker.ts';
import type { JournalService } from '../journals/service.ts';
import type { Logger } from '../logger.ts';
import type { Queryable } from '../storage/engine.ts';
import { nowIso } from '../time.ts';
import type { WebhookOutbox } from '../webhooks/outbox.ts';
import { videoEndpoints } from './endpoints.ts';
import { RenderJob, storedRequest } from './render.ts';
import type { VideoDeleteResponse, VideoListItem } from './schema.ts';
import type { StoredResult, StoredSource, VideoRequest, VideoRow, VideoStore } from './store.ts';

export const VIDEO_JOB = 'video_render';

/** Price of one video in micro-dollars, as its create endpoint declares it. */
export function videoPriceMicros(): number {
  return priceOf(videoEndpoints.create.price);
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

export class VideoService {
  readonly store: VideoStore;
  readonly options: VideoOptions;
  /** Idempotency-Key records of creates (the route runs a create through `once`). */
  readonly idempotency: IdempotencyStore;
  /** The lifecycle videos share with practice sets: reservation, job, finish, status, delete. */
  private readonly videos: PaidJobs<VideoRow>;

  constructor(private readonly deps: VideoDeps) {
    this.store = deps.store;
    this.idempotency = new IdempotencyStore(deps.store.engine);
    this.options = deps.options;
    this.videos = new PaidJobs({
      store: deps.store,
      what: 'Video',
      notFound,
      jobs: deps.jobs,
      credits: deps.credits,
      outbox: deps.outbox,
      logger: deps.logger,
      kind: VIDEO_JOB,
      idField: 'video_id',
      reservation: videoEndpoints.create.price.reservation,
      event: 'video',
      noun: 'video',
      jobName: 'render job',
    });
    const render = new RenderJob({
      store: deps.store,
      journals: deps.journals,
      logger: deps.logger,
      ffmpegThreads: deps.options.ffmpegThreads,
      workDir: (id) => this.workDir(id),
      completed: (id, result) => this.finishCompleted(id, result),
      failed: (id, error) => this.finishFailed(id, error),
    });
    this.videos.register(
      (ctx, id) => render.run(ctx, id),
      (id, reason, tx) => this.finishFailed(id, `Rendering stopped: ${reason}.`, tx),
    );
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
    const webhookUrl = input.webhook_url ?? null;
    await this.videos.create(
      p,
      id,
      videoPriceMicros(),
      (reservationId, tx) => this.store.insert({ id, key_id: p.keyId, org_id: p.orgId, request, webhook_url: webhookUrl, reservation_id: reservationId }, tx),
      q,
    );
    return { video_id: id };
  }

  // ---- finishing (the render job's outcome) -------------------------------------------------

  /** Settles the video, marks it completed with `result`, queues its webhook (once). */
  private finishCompleted(id: string, result: StoredResult): Promise<void> {
    const secs = result.duration_seconds.toFixed(1);
    return this.videos.completed(
      id,
      () => videoPriceMicros(),
      (_row, cost, tx) => this.store.complete(id, result, cost, `Video completed: ${secs} s, ${result.chapters.length} slides.`, tx),
    );
  }

  /** Refunds the video, marks it failed, queues its webhook (within `q`: the transaction that gives the job up); drops its files once committed. */
  private finishFailed(id: string, error: string, q: Queryable = this.store.engine): Promise<void> {
    return this.videos.failed(
      id,
      async (_row, tx) => {
        await this.store.fail(id, error, `${error} The reserved credit was refunded.`, tx);
        tx.afterCommit(() => void rm(this.workDir(id), { recursive: true, force: true }).catch(() => {}));
      },
      { error },
      q,
    );
  }

  // ---- list and delete ----------------------------------------------------------------------

  /** The key's videos, newest first, from before `pageToken` (the previous page's next_page_token). */
  list(p: Principal, pageToken: number | undefined, pageSize: number): Promise<{ items: VideoListItem[]; next?: number }> {
    return this.videos.list(p, pageToken, pageSize, (r) => {
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
  }

  /**
   * Deletes a video of this key (404 otherwise), paid first (`charge`; 402 deletes nothing). A
   * video still pending has its job cancelled and its reservation refunded in full: a video is
   * one piece of work, and none of it was delivered. Its files under DATA_DIR/videos/{id}/ are
   * removed once that commits and a run of its job in this process has stopped. No webhook event
   * is sent for a deletion.
   */
  async delete(p: Principal, id: string, charge?: Charge): Promise<Omit<VideoDeleteResponse, 'success' | 'message' | 'timestamp'>> {
    const d = await this.videos.cancelAndDelete(p, id, charge);
    await rm(this.workDir(id), { recursive: true, force: true });
    return { video_id: d.row.id, status: d.row.status, cancelled: d.cancelled, cost: usd(d.costMicros), refunded: usd(d.refundedMicros) };
  }

  // ---- status and files ----------------------------------------------------------------------

  status(p: Principal, id: string): Promise<VideoStatusView> {
    return this.videos.status(p, id, (row) => this.view(row), (row, reason) => ({
      success: false,
      status: 'status_error',
      message: `The status of this video cannot be determined: ${reason}. Create the video again.`,
      completion_percentage: Number(row.completion_percentage) || 0,
      video_id: row.id,
      error: reason,
      timestamp: nowIso(),
      created_at: row.created_at,
    }));
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
        const pending = await this.videos.pendingJob(row);
        if ('now' in pending) return this.view(pending.now);
        const { job } = pending;
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
        if (!row.result) throw new UnreadableError('the video is completed but its result is missing');
        const r = JSON.parse(row.result) as StoredResult;
        const mp4 = join(this.workDir(row.id), 'video.mp4');
        let size: number;
        try {
          size = (await stat(mp4)).size;
        } catch {
          throw new UnreadableError('the video is completed but its file is missing');
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
        throw new UnreadableError(`its stored status "${String(row.status).slice(0, 40)}" is not one this service writes`);
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

function parseOrUndefined(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
