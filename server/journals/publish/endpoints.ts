/** Publishing endpoints (docs/publishing.md), each declared once; routes.ts serves them. */
import * as z from 'zod';
import { meteredEndpoints } from '../../billing/endpoints.ts';
import { WRITE_ERRORS } from '../../http/endpoint.ts';

/** A slug is one DNS label: it names the page (/p/{slug}) and can name a subdomain. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;

const JOURNAL = { journal_id: 'the journal id' };

export const publishResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  journal_id: z.string(),
  publish_status: z.enum(['private', 'published']),
  slug: z.string().nullable().describe('the page is /p/{slug}; also the publish_subdomain'),
  url: z.string().nullable().describe('the public page (no key needed)'),
  timestamp: z.string(),
});
export type PublishResponse = z.infer<typeof publishResponseSchema>;

export const publishEndpoints = meteredEndpoints('Publishing', {
  publish: {
    method: 'post',
    path: '/v1/journals/{journal_id}/publish',
    operationId: 'publishJournal',
    summary: 'Publish the journal read-only at /p/{slug} (no key needed to read it)',
    description:
      'slug: 3-63 characters, lower-case letters, digits and inner hyphens (a DNS label, so it can name a subdomain). Without one, a published journal keeps its slug and a private one gets one made from its title. A slug another journal holds is a 409.',
    params: JOURNAL,
    body: z
      .object({
        slug: z
          .string()
          .regex(SLUG_PATTERN, 'slug: 3-63 characters, lower-case letters, digits and hyphens, not starting or ending with a hyphen')
          .optional(),
      })
      .strict(),
    example: { slug: 'cell-biology' },
    success: { status: 200, description: 'published', schema: publishResponseSchema },
    errors: [...WRITE_ERRORS, 409],
    price: { base: 50, billing: 'request' },
  },
  unpublish: {
    method: 'post',
    path: '/v1/journals/{journal_id}/unpublish',
    operationId: 'unpublishJournal',
    summary: 'Make the journal private again: its page is a 404 at once, on every instance',
    params: JOURNAL,
    success: { status: 200, description: 'private', schema: publishResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 50, billing: 'request' },
  },
});
