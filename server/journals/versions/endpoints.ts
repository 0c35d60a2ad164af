/** The version endpoints (docs/versions.md), each declared once; routes.ts serves them. */
import * as z from 'zod';
import { meteredEndpoints } from '../../billing/endpoints.ts';
import { read } from '../../billing/prices.ts';
import { READ_ERRORS, WRITE_ERRORS } from '../../http/endpoint.ts';
import { pageQuery, pageToken } from '../../http/paging.ts';
import { idText, nameText } from '../../http/text.ts';
import { DIFF_PAGE_ENTRIES } from './diff-task.ts';
import { versionCreateResponseSchema, versionDiffResponseSchema, versionGetResponseSchema, versionListResponseSchema, versionRestoreResponseSchema } from './schema.ts';

const JOURNAL = { journal_id: 'the journal id' };
const VERSION = { ...JOURNAL, version_id: 'the version id' };

export const versionEndpoints = meteredEndpoints('Versions', {
  create: {
    method: 'post',
    path: '/v1/journals/versions/{journal_id}',
    operationId: 'createVersion',
    summary: 'Take a named version of the journal',
    params: JOURNAL,
    body: z.object({ name: nameText(200, 'name').transform((s) => s.trim()).optional() }).strict(),
    example: { name: 'Before the exam' },
    success: { status: 200, description: 'the version', schema: versionCreateResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 50, billing: 'request' },
  },
  list: {
    method: 'get',
    path: '/v1/journals/versions/{journal_id}',
    operationId: 'listVersions',
    summary: "The journal's versions, newest first, paged",
    params: JOURNAL,
    query: pageQuery,
    success: { status: 200, description: 'a page', schema: versionListResponseSchema },
    errors: READ_ERRORS,
    price: read(10),
  },
  diff: {
    method: 'get',
    path: '/v1/journals/versions/{journal_id}/diff',
    operationId: 'diffVersions',
    summary: 'Block-level changes between two versions, or a version and now',
    description: `Paged: at most \`page_size\` entries (default and maximum ${DIFF_PAGE_ENTRIES}) and about 1 MiB of markdown per answer, in the order added, removed, changed, moved; \`next_page_token\` (pass it as \`page_token\`) while more follow, \`total\` entries in all.`,
    params: JOURNAL,
    query: z.object({
      from: idText(100, 'from'),
      to: idText(100, 'to').default('current'),
      page_token: pageToken.optional(),
      page_size: z.coerce.number().int().min(1).max(DIFF_PAGE_ENTRIES).default(DIFF_PAGE_ENTRIES),
    }),
    success: { status: 200, description: 'the changes', schema: versionDiffResponseSchema },
    errors: READ_ERRORS,
    price: read(20),
  },
  get: {
    method: 'get',
    path: '/v1/journals/versions/{journal_id}/{version_id}',
    operationId: 'getVersion',
    summary: 'The journal at a version (markdown and/or model)',
    params: VERSION,
    query: z.object({ format: z.enum(['markdown', 'model', 'both']).default('both') }),
    success: { status: 200, description: 'the version', schema: versionGetResponseSchema },
    errors: READ_ERRORS,
    price: read(10),
  },
  restore: {
    method: 'post',
    path: '/v1/journals/versions/{journal_id}/{version_id}/restore',
    operationId: 'restoreVersion',
    summary: 'Make the journal equal to a version, live',
    params: VERSION,
    body: z.object({ sync_realtime_state: z.boolean().default(true) }).strict(),
    example: { sync_realtime_state: true },
    success: { status: 200, description: 'restored', schema: versionRestoreResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 100, billing: 'request', note: 'the version taken before the restore is included' },
  },
});
