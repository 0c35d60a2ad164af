/** Routes of videos (endpoints.ts): create, status, list, delete, and the files of a finished video. */
import { Router, type Response } from 'express';
import { principalOf } from '../auth/middleware.ts';
import { chargeFor } from '../billing/middleware.ts';
import { route, type Call } from '../http/endpoint.ts';
import { invalid } from '../http/errors.ts';
import { idempotencyOf } from '../http/idempotency.ts';
import { listRoute } from '../http/paging.ts';
import { exactlyOneSource } from '../sources/request.ts';
import { SourceTextError } from '../sources/text-blocks.ts';
import { nowIso } from '../time.ts';
import { checkWebhookUrl } from '../webhooks/ssrf.ts';
import { videoEndpoints as e } from './endpoints.ts';
import { normalizeVoice } from './engine/speech.ts';
import { buildOutline } from './outline.ts';
import type { VideoCreateResponse, VideoDeleteResponse, VideoStatusResponse } from './schema.ts';
import type { VideoService } from './service.ts';

export function videoRoutes(videos: VideoService, opts: { allowPrivateWebhooks: boolean }): Router {
  const r = Router();

  route(r, e.create, async (call, res) => {
    const b = call.body;
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
    const p = principalOf(call.req);
    // Idempotency-Key: a retry with the same body replays this answer; nothing is reserved twice.
    const out = await videos.idempotency.once(p.keyId, idempotencyOf(call.req, call.raw), async (tx) => {
      const { video_id } = await videos.create(p, { ...b, voice }, tx);
      const answer: VideoCreateResponse = { success: true, video_id, status: 'pending', message: `Rendering; poll GET /v1/video/status/${video_id}`, timestamp: nowIso() };
      return { status: 200, body: answer };
    });
    res.status(out.status).json(out.body);
  });

  listRoute(r, e.list, 'videos', (n) => `${n} videos`, (req, token, size) => videos.list(principalOf(req), token, size));

  route(r, e.delete, async (call, res) => {
    const out = await videos.delete(principalOf(call.req), call.param('video_id'), chargeFor(call.req));
    const answer: VideoDeleteResponse = {
      success: true,
      message: out.cancelled ? 'Video deleted; its render was stopped and its credit refunded' : 'Video deleted',
      ...out,
      timestamp: nowIso(),
    };
    res.json(answer);
  });

  route(r, e.status, async (call, res) => {
    const answer: VideoStatusResponse = await videos.status(principalOf(call.req), call.param('video_id'));
    res.json(answer);
  });

  const send = (which: 'video' | 'captions') => async (call: Call<typeof e.download | typeof e.captions>, res: Response) => {
    const id = call.param('video_id');
    const path = await videos.file(principalOf(call.req), id, which);
    const headers =
      which === 'video'
        ? { 'Content-Type': 'video/mp4', 'Content-Disposition': `inline; filename="video-${id}.mp4"` }
        : { 'Content-Type': 'text/vtt; charset=utf-8' };
    // sendFile answers Range requests (206) and HEAD; dotfiles are allowed because DATA_DIR may sit under one.
    await new Promise<void>((resolve, reject) => {
      res.sendFile(path, { headers: { ...headers, 'Cache-Control': 'private, no-store' }, dotfiles: 'allow', acceptRanges: true, lastModified: true }, (err) => {
        if (err && !res.headersSent) reject(err);
        else resolve();
      });
    });
  };
  route(r, e.download, send('video'));
  route(r, e.captions, send('captions'));

  return r;
}
