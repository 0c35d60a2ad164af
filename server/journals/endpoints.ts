/**
 * The journal endpoints (spec endpoints 1-8, the trash), each declared once: path, request and
 * answer schemas, price and limit class, OpenAPI text. routes.ts serves them.
 */
import * as z from 'zod';
import { meteredEndpoints } from '../billing/endpoints.ts';
import { perTier } from '../billing/limits.ts';
import { read } from '../billing/prices.ts';
import { CREATE_ERRORS, READ_ERRORS, WRITE_ERRORS } from '../http/endpoint.ts';
import { pagedList } from '../http/paging.ts';
import { idText, nameText } from '../http/text.ts';
import { editRequest } from './edit/operations.ts';
import {
  editResponseSchema,
  journalContentResponseSchema,
  journalCreateResponseSchema,
  journalDeleteResponseSchema,
  journalImportResponseSchema,
  journalListResponseSchema,
  journalModelResponseSchema,
  journalRenameResponseSchema,
  journalRestoreResponseSchema,
  journalTrashResponseSchema,
} from './schema.ts';

export const MAX_TITLE = 300;
export const MAX_MARKDOWN_BYTES = 1024 * 1024;

const title = nameText(MAX_TITLE, 'title');
const journalId = idText(100, 'journal_id');

const JOURNAL = { journal_id: 'the journal id' };

export const journalEndpoints = meteredEndpoints('Journals', {
  create: {
    method: 'put',
    path: '/v1/journals/editor/create',
    operationId: 'createJournal',
    summary: 'Create a blank journal',
    body: z.object({ title: title.optional() }),
    example: { title: 'Biology' },
    idempotent: true,
    success: { status: 200, description: 'created', schema: journalCreateResponseSchema },
    errors: CREATE_ERRORS,
    price: { base: 100, billing: 'request' },
  },
  import: {
    method: 'put',
    path: '/v1/journals/editor/import_from_markdown',
    operationId: 'importJournal',
    summary: 'Create a journal from markdown (CommonMark + GFM)',
    body: z.object({
      markdown: z
        .string()
        .refine((m) => Buffer.byteLength(m) <= MAX_MARKDOWN_BYTES, `markdown is limited to ${MAX_MARKDOWN_BYTES} bytes (1 MiB)`),
      title: title.optional(),
      team_slug: z.string().max(100).regex(/^[A-Za-z0-9_-]*$/, 'team_slug may hold letters, digits, - and _').optional(),
    }),
    example: { markdown: '# Cells\n\nThe *cell* is the unit of life.\n\n- nucleus\n- ribosome\n', title: 'Cells' },
    idempotent: true,
    success: { status: 200, description: 'imported', schema: journalImportResponseSchema },
    errors: CREATE_ERRORS,
    price: { base: 200, perUnit: { unit: 'KiB of markdown (started)', micros: 20 }, billing: 'request' },
  },
  list: {
    ...pagedList({ path: '/v1/journals/list', operationId: 'listJournals', summary: "The key's journals, newest first, paged", schema: journalListResponseSchema }),
    price: read(10),
    limits: { minute: perTier(25, 100, 10_000) },
  },
  content: {
    method: 'get',
    path: '/v1/journals/content/{journal_id}',
    operationId: 'journalContent',
    summary: 'The journal as markdown, with its revision',
    params: JOURNAL,
    success: { status: 200, description: 'the markdown', schema: journalContentResponseSchema },
    errors: READ_ERRORS,
    price: read(10),
    limits: { minute: perTier(10, 100, 1_000) },
    meterName: 'GET /journals/content/{id}',
  },
  model: {
    method: 'get',
    path: '/v1/journals/editor/model/{journal_id}',
    operationId: 'journalModel',
    summary: 'The ProseMirror block model; every block has attrs.id',
    params: JOURNAL,
    success: { status: 200, description: 'the model', schema: journalModelResponseSchema },
    errors: READ_ERRORS,
    price: read(10),
  },
  edit: {
    method: 'patch',
    path: '/v1/journals/editor/edit',
    operationId: 'editJournal',
    summary: 'Ordered block operations as one Yjs transaction',
    description: 'dry_run, expected_revision (409 when it does not match), atomic, sync_realtime_state (README "Edit operations").',
    body: editRequest,
    example: {
      journal_id: '3f0b2c1e-…',
      operations: [
        { type: 'create_node', nodeType: 'heading', params: [{ level: 2, content: 'Organelles' }], referenceId: 'b7x2k9', position: 'after' },
        { type: 'update_node', nodeId: 'b7x2k9', nodeType: 'heading', params: [1, 'Cells and organelles'] },
      ],
      expected_revision: 3,
    },
    idempotent: true,
    success: { status: 200, description: 'the result of each operation', schema: editResponseSchema },
    errors: [...WRITE_ERRORS, 409],
    price: { base: 100, perUnit: { unit: 'operation', micros: 10 }, billing: 'request' },
  },
  rename: {
    method: 'patch',
    path: '/v1/journals/editor/rename',
    operationId: 'renameJournal',
    summary: 'Rename a journal',
    body: z.object({ journal_id: journalId, title }),
    example: { journal_id: '3f0b2c1e-…', title: 'Cell biology' },
    success: { status: 200, description: 'renamed', schema: journalRenameResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 50, billing: 'request' },
  },
  delete: {
    method: 'delete',
    path: '/v1/journals/editor/delete/{journal_id}',
    operationId: 'deleteJournal',
    summary: 'Move a journal to the trash (permanent=true: purge it and its history); its editors are closed',
    params: JOURNAL,
    query: z.object({
      permanent: z
        .enum(['true', 'false'], { message: "permanent must be 'true' or 'false'" })
        .optional()
        .transform((v) => v === 'true'),
    }),
    success: { status: 200, description: 'deleted', schema: journalDeleteResponseSchema },
    errors: READ_ERRORS,
    price: { base: 50, billing: 'request' },
  },
  trash: {
    ...pagedList({ path: '/v1/journals/trash', operationId: 'listTrash', summary: "The key's deleted journals, paged", schema: journalTrashResponseSchema }),
    price: read(10),
  },
  restore: {
    method: 'post',
    path: '/v1/journals/editor/restore/{journal_id}',
    operationId: 'restoreJournal',
    summary: 'Bring a journal back from the trash',
    params: JOURNAL,
    success: { status: 200, description: 'restored', schema: journalRestoreResponseSchema },
    errors: WRITE_ERRORS,
    price: { base: 50, billing: 'request' },
  },
});
