/**
 * The render job of a video: reads the journal (as it is then) or the stored text once, stores
 * the outline it builds so a resumed job renders the same video, runs the restartable offline
 * engine in DATA_DIR/videos/{id}/ with throttled progress, and hands the outcome to the service,
 * which finishes the video (settle or refund, webhook).
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import type { JobContext } from '../jobs/worker.ts';
import { DEFAULT_IMPORT_TITLE, DEFAULT_TITLE, type JournalService } from '../journals/service.ts';
import type { Logger } from '../logger.ts';
import { flattenInput, SourceTextError, type PMJSON, type SourceInput } from '../sources/text-blocks.ts';
import type { RenderResult } from './engine/index.ts';
import { buildOutline } from './outline.ts';
import type { StoredOutline, StoredResult, StoredSource, VideoRequest, VideoRow, VideoStore } from './store.ts';

/** Progress is written to the store at most this often while a render runs. */
export const PROGRESS_WRITE_MS = 200;

export const storedRequest = z.object({
  source: z.enum(['journal', 'text']),
  journal_id: z.string().optional(),
  text: z.string().optional(),
  title: z.string().optional(),
  voice: z.string(),
  max_duration_seconds: z.number().positive().max(600),
});

export interface RenderDeps {
  store: VideoStore;
  journals: JournalService;
  logger: Logger;
  ffmpegThreads: number;
  workDir(id: string): string;
  /** The video rendered: the service settles it. */
  completed(id: string, result: StoredResult): Promise<void>;
  /** The video cannot be rendered: the service refunds it. */
  failed(id: string, error: string): Promise<void>;
}

export class RenderJob {
  constructor(private readonly deps: RenderDeps) {}

  async run(ctx: JobContext<unknown>, id: string): Promise<void> {
    try {
      await this.renderOnce(ctx, id);
    } finally {
      // Deleted while rendering (perhaps by a request on another instance, which removed the
      // files before this run stopped writing them): leave nothing behind.
      if (!(await this.deps.store.get(id).catch(() => true))) await rm(this.deps.workDir(id), { recursive: true, force: true });
    }
  }

  private async renderOnce(ctx: JobContext<unknown>, id: string): Promise<void> {
    const row = await this.deps.store.get(id);
    if (!row || row.status !== 'pending') return; // finished before a crash
    let req: VideoRequest;
    try {
      req = storedRequest.parse(JSON.parse(row.request));
    } catch {
      await this.deps.failed(id, 'The stored request of this video is unreadable.');
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
          await this.deps.failed(id, err instanceof SourceTextError ? `Nothing to narrate: ${err.message}.` : err.message);
          return;
        }
        throw err;
      }
      await this.deps.store.saveOutline(id, stored);
    }

    const workDir = this.deps.workDir(id);
    // A process killed mid-render may leave half-written files (and an orphaned ffmpeg still
    // writing one): unlink them so this run writes fresh files. Finished pieces are kept.
    if (ctx.attempt > 1) await removeTmpFiles(workDir);
    let lastWrite = 0;
    const onProgress = (pct: number) => {
      const now = Date.now();
      if (now - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = now;
      // Throttled and best effort: a lost progress write only shows an older percentage.
      this.deps.store.progress(id, Math.min(99, pct)).catch((err) => this.deps.logger.warn({ err, video_id: id }, 'video progress write failed'));
    };
    let result: RenderResult;
    try {
      // The render engines (canvas, speech, ffmpeg) load with the first video.
      const { renderVideo } = await import('./engine/index.ts');
      result = await renderVideo(stored.outline, {
        workDir,
        voice: req.voice,
        maxDurationSeconds: req.max_duration_seconds,
        ffmpegThreads: this.deps.ffmpegThreads,
        signal: ctx.signal,
        onProgress,
      });
    } catch (err) {
      if (ctx.signal.aborted) throw err; // shutdown or lost lease: the job layer decides
      const why = err instanceof Error ? err.message : String(err);
      this.deps.logger.warn({ video_id: id, error: why }, 'video render failed');
      await this.deps.failed(id, `Rendering failed: ${why.slice(0, 500)}`);
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
    await this.deps.completed(id, {
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
