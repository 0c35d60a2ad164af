/**
 * zod schemas of the video endpoints' answers that the OpenAPI document publishes: create (also
 * what an Idempotency-Key replay returns), list and delete. Handlers type their answers with these.
 */
import * as z from 'zod';

export const videoCreateResponseSchema = z.object({
  success: z.literal(true),
  video_id: z.string(),
  status: z.literal('pending'),
  message: z.string(),
  timestamp: z.string(),
});

/** One video of GET /v1/video/list. */
export const videoListItemSchema = z.object({
  video_id: z.string(),
  /** The requested title, or the finished video's; null while a video without one renders. */
  title: z.string().nullable(),
  source: z.enum(['journal', 'text']),
  journal_id: z.string().nullable(),
  status: z.string().describe('pending, completed or failed as stored; the status endpoint tells status_error apart'),
  completion_percentage: z.number(),
  /** Dollars charged once the video ended; null while pending. */
  cost: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const videoListResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  videos: z.array(videoListItemSchema),
  next_page_token: z.number().int().optional(),
});

export const videoDeleteResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  video_id: z.string(),
  /** The status the video had when it was deleted. */
  status: z.string(),
  /** True when its render job was still queued or running and was stopped. */
  cancelled: z.boolean(),
  /** Dollars the video cost in the end (0 for one cancelled before it was finished). */
  cost: z.number(),
  /** Dollars given back by this deletion (the whole reservation of a cancelled video). */
  refunded: z.number(),
  timestamp: z.string(),
});

export type VideoCreateResponse = z.infer<typeof videoCreateResponseSchema>;
export type VideoListItem = z.infer<typeof videoListItemSchema>;
export type VideoListResponse = z.infer<typeof videoListResponseSchema>;
export type VideoDeleteResponse = z.infer<typeof videoDeleteResponseSchema>;

/** Answer of GET /v1/video/status/{video_id} (VideoStatusView in service.ts). */
export const videoStatusResponseSchema = z.object({
  success: z.boolean(),
  status: z.enum(['pending', 'completed', 'failed', 'status_error']),
  message: z.string(),
  completion_percentage: z.number(),
  video_id: z.string(),
  response: z
    .object({
      success: z.boolean(),
      error: z.string(),
      s3_url: z.string(),
      b64_video: z.string(),
      title: z.string(),
      transcript: z.string(),
      sources: z.array(z.object({ url: z.string(), content: z.string() })),
      cost: z.number(),
      model: z.string(),
      timestamp: z.string(),
      captions_url: z.string(),
      duration_seconds: z.number(),
      narration_seconds: z.number(),
      size_bytes: z.number(),
      truncated: z.boolean(),
      notes: z.array(z.string()),
      chapters: z.array(z.unknown()),
    })
    .optional()
    .describe('the result, once completed'),
  error: z.string().optional(),
  timestamp: z.string(),
  created_at: z.string(),
});
export type VideoStatusResponse = z.infer<typeof videoStatusResponseSchema>;
