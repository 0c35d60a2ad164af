/** The video endpoints (POST /video/create, spec endpoint 12, list, delete, files), each declared once; routes.ts serves them. */
import * as z from 'zod';
import { meteredEndpoints } from '../billing/endpoints.ts';
import { perTier } from '../billing/limits.ts';
import { read } from '../billing/prices.ts';
import { CREATE_ERRORS, READ_ERRORS, type ErrorStatus } from '../http/endpoint.ts';
import { pagedList } from '../http/paging.ts';
import { idText, lineText, nameText } from '../http/text.ts';
import { EXACTLY_ONE_SOURCE, sourceText } from '../sources/request.ts';
import { webhookUrl } from '../webhooks/ssrf.ts';
import { VOICE_PATTERN } from './engine/speech.ts';
import { MAX_VIDEO_SECONDS } from './outline.ts';
import { videoCreateResponseSchema, videoDeleteResponseSchema, videoListResponseSchema, videoStatusResponseSchema } from './schema.ts';

export const MAX_VIDEO_TITLE = 300;
/** Longest `text` accepted by POST /v1/video/create (characters). */
export const MAX_VIDEO_TEXT_CHARS = 100_000;

const VIDEO = { video_id: 'the video id' };

/** A file of a finished video, served with Range requests (206). */
function file(operationId: string, name: string, summary: string, what: string, contentType: string) {
  return {
    method: 'get' as const,
    path: `/v1/video/${name}/{video_id}`,
    operationId,
    summary,
    params: VIDEO,
    success: { status: 200, description: what, contentType },
    extra: { 206: { description: 'the range asked for (Range header)', contentType } },
    errors: [...READ_ERRORS, 409, 410] as ErrorStatus[],
    price: read(0),
  };
}

export const videoEndpoints = meteredEndpoints('Videos', {
  create: {
    method: 'post',
    path: '/v1/video/create',
    operationId: 'createVideo',
    summary: 'A narrated video from a journal or text, rendered by a job',
    body: z.object({
      journal_id: idText(200, 'journal_id').optional(),
      text: sourceText(MAX_VIDEO_TEXT_CHARS).optional(),
      title: nameText(MAX_VIDEO_TITLE, 'title').optional(),
      voice: lineText(60, 'voice')
        .refine((v) => new RegExp(VOICE_PATTERN).test(v), 'voice must be an eSpeak voice name such as en-us or en-gb (blank: en-us)')
        .meta({ pattern: VOICE_PATTERN })
        .optional(),
      max_duration_seconds: z.number().positive().max(MAX_VIDEO_SECONDS, `max_duration_seconds is at most ${MAX_VIDEO_SECONDS}`).default(MAX_VIDEO_SECONDS),
      webhook_url: webhookUrl.optional(),
    }).meta(EXACTLY_ONE_SOURCE),
    example: { journal_id: '3f0b2c1e-…', max_duration_seconds: 120 },
    idempotent: true,
    success: { status: 200, description: 'accepted; poll the status', schema: videoCreateResponseSchema },
    errors: [...CREATE_ERRORS, 404],
    price: { base: 100_000, billing: 'reserve', reservation: 'video', note: 'reserved at creation; the video carries the settled cost' },
    limits: { minute: perTier(3, 10, 100), day: perTier(50, 1_000, 10_000) },
  },
  status: {
    method: 'get',
    path: '/v1/video/status/{video_id}',
    operationId: 'videoStatus',
    summary: 'Progress, then the result',
    params: VIDEO,
    success: { status: 200, description: 'the status', schema: videoStatusResponseSchema },
    errors: READ_ERRORS,
    price: read(10),
  },
  download: file('downloadVideo', 'download', 'The MP4 (Range requests answered with 206)', 'the video', 'video/mp4'),
  captions: file('videoCaptions', 'captions', 'The captions (WebVTT)', 'the captions', 'text/vtt; charset=utf-8'),
  list: {
    ...pagedList({ path: '/v1/video/list', operationId: 'listVideos', summary: "The key's videos, paged", schema: videoListResponseSchema }),
    price: read(10),
  },
  delete: {
    method: 'delete',
    path: '/v1/video/delete/{video_id}',
    operationId: 'deleteVideo',
    summary: 'Delete a video and its files; a running render stops and is refunded',
    params: VIDEO,
    success: { status: 200, description: 'deleted', schema: videoDeleteResponseSchema },
    errors: READ_ERRORS,
    price: { base: 50, billing: 'request', note: 'a pending video is stopped and its reservation refunded' },
  },
});
