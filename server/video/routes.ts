/** HTTP routes of videos (POST /video/create, spec endpoint 12, list, delete, and the files of a finished video). */
import { Router, type Request, type Response, type NextFunction } from 'express';
import * as z from 'zod';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { invalid, parseOr422 } from '../http/errors.ts';
import { pageQuery } from '../http/paging.ts';
import { idempotencyOf } from '../http/idempotency.ts';
import { exactlyOneSource, nonBlank } from '../sources/request.ts';
import { SourceTextError } from '../sources/text-blocks.ts';
import { nowIso } from '../time.ts';
import { checkWebhookUrl } from '../webhooks/ssrf.ts';
import { normalizeVoice } from './engine/speech.ts';
import { buildOutline, MAX_VIDEO_SECONDS } from './outline.ts';
import type { VideoStatusResponse, VideoCreateResponse, VideoDeleteResponse, VideoListResponse } from './schema.ts';
import { MAX_VIDEO_TEXT_CHARS, type VideoService } from './service.ts';

export const MAX_VIDEO_TITLE = 300;

export const createBody = z.object({
  journal_id: z.string().min(1).max(200).optional(),
  text: z.string().max(MAX_VIDEO_TEXT_CHARS, `text is limited to ${MAX_VIDEO_TEXT_CHARS} characters`).optional(),
  title: nonBlank(MAX_VIDEO_TITLE, 'title').optional(),
  voice: z.string().max(60).optional(),
  max_duration_seconds: z.number().positive().max(MAX_VIDEO_SECONDS, `max_duration_seconds is at most ${MAX_VIDEO_SECONDS}`).default(MAX_VIDEO_SECONDS),
  webhook_url: z.string().optional(),
});

function body(req: Request): unknown {
  return req.body === undefined ? {} : req.body;
}

export function videoRoutes(videos: VideoService, opts: { allowPrivateWebhooks: boolean }): Router {
  const r = Router();

  r.post('/video/create', async (req, res) => {
    const raw = body(req);
    const b = parseOr422(createBody, raw, ['body']);
    exactlyOneSource(b);
    let voice: string;
    try {
      voice = normalizeVoice(b.voice);
    } catch (err) {
      throw invalid(['body', 'voice'], (err as Error).message, 'value_error');
    }
    if (b.webhook_url !== undefined) {
      const why = checkWebhookUrl(b.webhook_url, opts.allowPrivateWebhooks);
      if (why) throw invalid(['body', 'webhook_url'], why, 'url_refused');
    }
    if (b.text !== undefined) {
      // Cheap for text (bounded), so an unusable text is refused now; a journal is read by the job.
      try {
        buildOutline({ text: b.text }, { maxDurationSeconds: b.max_duration_seconds });
      } catch (err) {
        if (err instanceof SourceTextError) throw invalid(['body', 'text'], `text has nothing to narrate: ${err.message}`, 'value_error');
        throw err;
      }
    }
    const p = principalOf(req);
    // Idempotency-Key: a retry with the same body replays this answer; nothing is reserved twice.
    const out = await videos.idempotency.once(p.keyId, idempotencyOf(req, raw), async (tx) => {
      const { video_id } = await videos.create(p, { ...b, voice }, tx);
      const answer: VideoCreateResponse = { success: true, video_id, status: 'pending', message: `Rendering; poll GET /v1/video/status/${video_id}`, timestamp: nowIso() };
      return { status: 200, body: answer };
    });
    res.status(out.status).json(out.body);
  });

  r.get('/video/list', async (req, res) => {
    const q = parseOr422(pageQuery, req.query, ['query']);
    const page = await videos.list(principalOf(req), q.page_token, q.page_size);
    const answer: VideoListResponse = {
      success: true,
      message: `${page.videos.length} videos`,
      videos: page.videos,
      ...(page.next !== undefined ? { next_page_token: page.next } : {}),
    };
    res.json(answer);
  });

  r.delete('/video/delete/:video_id', async (req, res) => {
    const out = await videos.delete(principalOf(req), req.params.video_id, chargeFor(req));
    const answer: VideoDeleteResponse = {
      success: true,
      message: out.cancelled ? 'Video deleted; its render was stopped and its credit refunded' : 'Video deleted',
      ...out,
      timestamp: nowIso(),
    };
    res.json(answer);
  });

  r.get('/video/status/:video_id', async (req, res) => {
    const answer: VideoStatusResponse = await videos.status(principalOf(req), req.params.video_id!);
    res.json(answer);
  });

  const send = (which: 'video' | 'captions') => async (req: Request, res: Response, next: NextFunction) => {
    const id = String(req.params.video_id);
    const path = await videos.file(principalOf(req), id, which);
    const headers =
      which === 'video'
        ? { 'Content-Type': 'video/mp4', 'Content-Disposition': `inline; filename="video-${id}.mp4"` }
        : { 'Content-Type': 'text/vtt; charset=utf-8' };
    // sendFile answers Range requests (206) and HEAD; dotfiles are allowed because DATA_DIR may sit under one.
    res.sendFile(path, { headers: { ...headers, 'Cache-Control': 'private, no-store' }, dotfiles: 'allow', acceptRanges: true, lastModified: true }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  };
  r.get('/video/download/:video_id', send('video'));
  r.get('/video/captions/:video_id', send('captions'));

  return r;
}
