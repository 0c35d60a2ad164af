/**
 * zod schemas of the key management endpoints (docs/keys.md): the requests they validate and the
 * answers they shape; the OpenAPI document is generated from them.
 */
import * as z from 'zod';
import { ROLES } from '../auth/keys.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/paging.ts';
import { nameText } from '../http/text.ts';

export const MAX_KEY_NAME = 100;

export const roleSchema = z.enum(ROLES).describe('`admin` also manages the organization\'s keys; `member` (the default) does everything else');

export const createKeyBody = z
  .object({
    name: nameText(MAX_KEY_NAME, 'name').describe('A label to tell the key apart in listings'),
    role: roleSchema.default('member'),
  })
  .strict()
  .meta({ examples: [{ name: 'CI pipeline', role: 'member' }] });

/** The keyset cursor of GET /v1/keys: the last key of the previous page, opaque to clients. */
const PAGE_TOKEN = /^[A-Za-z0-9_-]{1,400}$/;

export const keyListQuery = z.object({
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  page_token: z.string().regex(PAGE_TOKEN, 'page_token must be the next_page_token of the previous page').optional(),
  include_revoked: z
    .enum(['true', 'false'], { message: "include_revoked must be 'true' or 'false'" })
    .default('false')
    .transform((v) => v === 'true')
    .describe('also list revoked keys (with their revoked_at)'),
});

/** A key id as stored (a UUID fits); any other shape is an unknown key. */
export const keyIdParam = z.string().min(1).max(100);

export const keyInfoSchema = z.object({
  key_id: z.string(),
  name: z.string().nullable(),
  /** The first characters of the secret, to recognise it (never the secret). */
  prefix: z.string().describe('the first 13 characters of the key, to recognise it; never the secret'),
  role: roleSchema,
  created_at: z.string(),
  last_used_at: z.string().nullable().describe('last authenticated request, to the second (written within about a second); null when never used'),
  revoked_at: z.string().nullable(),
});

export const keyListResponseSchema = z
  .object({
    success: z.literal(true),
    keys: z.array(keyInfoSchema),
    next_page_token: z.string().optional().describe('present when there are more keys: pass it as page_token'),
  })
  .meta({
    examples: [
      {
        success: true,
        keys: [
          {
            key_id: '6f1c2a4e-8d2b-4a47-9a59-0b4cf1f0d3a1',
            name: 'bootstrap',
            prefix: 'sk_study_AbCd',
            role: 'admin',
            created_at: '2030-06-01T09:00:00.000Z',
            last_used_at: '2030-06-02T10:11:12.000Z',
            revoked_at: null,
          },
        ],
      },
    ],
  });

export const keyCreateResponseSchema = z
  .object({
    success: z.literal(true),
    key_id: z.string(),
    api_key: z.string().describe('the secret, shown this once: only its hash is stored'),
    name: z.string().nullable(),
    role: roleSchema,
    created_at: z.string(),
  })
  .meta({
    examples: [
      {
        success: true,
        key_id: '0b8e7c52-9a0f-4f0e-9c1e-3d2b1a0f9e8d',
        api_key: 'sk_study_3q2Vx…',
        name: 'CI pipeline',
        role: 'member',
        created_at: '2030-06-02T10:11:12.000Z',
      },
    ],
  });

export const keyRevokeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  key_id: z.string(),
  revoked_at: z.string().describe('when the key was revoked (the first revocation, when it already was)'),
});

export type KeyInfo = z.infer<typeof keyInfoSchema>;
export type KeyListResponse = z.infer<typeof keyListResponseSchema>;
export type KeyCreateResponse = z.infer<typeof keyCreateResponseSchema>;
export type KeyRevokeResponse = z.infer<typeof keyRevokeResponseSchema>;
