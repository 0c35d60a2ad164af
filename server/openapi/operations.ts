/**
 * Every HTTP operation of the service for the OpenAPI document, pointing at the zod schemas the
 * routes validate requests with and type their answers with (nothing is described twice). A test
 * (test/openapi/document.test.ts) checks that every route the app registers is listed here, and the
 * test client validates every answer the suites see against the document (test/helpers/openapi.ts).
 */
import { z } from 'zod';
import { usageQuery, usageResponseSchema } from '../billing/usage-schema.ts';
import { createBody as flashcardCreateBody } from '../flashcards/routes.ts';
import { deckCreateResponseSchema, deckDeleteResponseSchema, deckListResponseSchema, deckResponseSchema } from '../flashcards/schema.ts';
import { pageQuery } from '../http/paging.ts';
import { editRequest } from '../journals/edit/operations.ts';
import { createBody as journalCreateBody, deleteQuery, importBody, renameBody } from '../journals/routes.ts';
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
} from '../journals/schema.ts';
import { createBody as versionCreateBody, diffQuery, formatQuery, restoreBody } from '../journals/versions/routes.ts';
import {
  versionCreateResponseSchema,
  versionDiffResponseSchema,
  versionGetResponseSchema,
  versionListResponseSchema,
  versionRestoreResponseSchema,
} from '../journals/versions/schema.ts';
import { createKeyBody, keyCreateResponseSchema, keyListQuery, keyListResponseSchema, keyRevokeResponseSchema } from '../keys/schema.ts';
import { createBody as practiceCreateBody, gradeBody } from '../practice/routes.ts';
import {
  gradeResponseSchema,
  practiceSetCreateResponseSchema,
  practiceSetDeleteResponseSchema,
  practiceSetListResponseSchema,
  practiceSetStatusResponseSchema,
} from '../practice/schema.ts';
import { sessionBody, sessionResponseSchema } from '../realtime/routes.ts';
import { createBody as videoCreateBody } from '../video/routes.ts';
import { videoCreateResponseSchema, videoDeleteResponseSchema, videoListResponseSchema, videoStatusResponseSchema } from '../video/schema.ts';

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** Error statuses an operation can answer besides those every /v1 operation has (401, 405, 429, 500, 503). */
export type ErrorStatus = 402 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 502;

export interface Operation {
  method: Method;
  /** OpenAPI path, `{name}` for parameters. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** `key`: Authorization: Bearer <API key> (every /v1 operation); `none`; `metrics`: METRICS_TOKEN when set. */
  auth: 'key' | 'none' | 'metrics';
  params?: Record<string, string>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** An example body; test/openapi checks that `body` accepts it. */
  example?: unknown;
  /** Takes an Idempotency-Key header. */
  idempotent?: boolean;
  success: { status: number; description: string; schema?: z.ZodType; contentType?: string };
  errors: ErrorStatus[];
  /** Other documented answers (e.g. 503 of /readyz), with their own schemas. */
  extra?: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
}

/** An operation as the catalog lists it: its tag comes from its section; `auth` is `key` unless it says otherwise. */
type Listed = Omit<Operation, 'tag' | 'auth'> & { auth?: Operation['auth'] };

/** The operations of one tag (a section of the document). */
function tagged(tag: string, ops: Listed[]): Operation[] {
  return ops.map((op) => ({ ...op, tag, auth: op.auth ?? 'key' }));
}

/** GET of a key's items, newest first, paged (`page_size`, `page_token`): every list but the versions' and the keys'. */
function pagedList(op: { path: string; operationId: string; summary: string; schema: z.ZodType }): Listed {
  const { schema, ...names } = op;
  return { method: 'get', ...names, query: pageQuery, success: { status: 200, description: 'a page', schema }, errors: [402, 422] };
}

const JOURNAL = { journal_id: 'the journal id' };
const READ: ErrorStatus[] = [402, 404, 422];
const WRITE: ErrorStatus[] = [402, 404, 413, 415, 422];
const CREATE: ErrorStatus[] = [402, 413, 415, 422];

export const operations: Operation[] = [
  ...tagged('Operations', [
    {
      method: 'get',
      path: '/healthz',
      operationId: 'healthz',
      summary: 'The process is alive',
      auth: 'none',
      success: { status: 200, description: 'alive', schema: z.object({ ok: z.literal(true) }) },
      errors: [],
    },
    {
      method: 'get',
      path: '/readyz',
      operationId: 'readyz',
      summary: 'The store of record takes writes and the service is not shutting down',
      auth: 'none',
      success: { status: 200, description: 'ready', schema: z.object({ ready: z.literal(true) }) },
      errors: [],
      extra: { 503: { description: 'not ready', schema: z.object({ ready: z.literal(false), reason: z.string() }) } },
    },
    {
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics (text exposition format)',
      auth: 'metrics',
      success: { status: 200, description: 'Prometheus text', contentType: 'text/plain; version=0.0.4; charset=utf-8' },
      errors: [],
    },
    {
      method: 'get',
      path: '/v1/openapi.json',
      operationId: 'openapi',
      summary: 'This document (no key needed)',
      auth: 'none',
      success: { status: 200, description: 'the OpenAPI 3.1 document', schema: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }) },
      errors: [],
    },
  ]),
  ...tagged('Journals', [
    {
      method: 'put',
      path: '/v1/journals/editor/create',
      operationId: 'createJournal',
      summary: 'Create a blank journal',
      body: journalCreateBody,
      example: { title: 'Biology' },
      idempotent: true,
      success: { status: 200, description: 'created', schema: journalCreateResponseSchema },
      errors: CREATE,
    },
    {
      method: 'put',
      path: '/v1/journals/editor/import_from_markdown',
      operationId: 'importJournal',
      summary: 'Create a journal from markdown (CommonMark + GFM)',
      body: importBody,
      example: { markdown: '# Cells\n\nThe *cell* is the unit of life.\n\n- nucleus\n- ribosome\n', title: 'Cells' },
      idempotent: true,
      success: { status: 200, description: 'imported', schema: journalImportResponseSchema },
      errors: CREATE,
    },
    pagedList({ path: '/v1/journals/list', operationId: 'listJournals', summary: "The key's journals, newest first, paged", schema: journalListResponseSchema }),
    {
      method: 'get',
      path: '/v1/journals/content/{journal_id}',
      operationId: 'journalContent',
      summary: 'The journal as markdown, with its revision',
      params: JOURNAL,
      success: { status: 200, description: 'the markdown', schema: journalContentResponseSchema },
      errors: READ,
    },
    {
      method: 'get',
      path: '/v1/journals/editor/model/{journal_id}',
      operationId: 'journalModel',
      summary: 'The ProseMirror block model; every block has attrs.id',
      params: JOURNAL,
      success: { status: 200, description: 'the model', schema: journalModelResponseSchema },
      errors: READ,
    },
    {
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
      errors: [...WRITE, 409],
    },
    {
      method: 'patch',
      path: '/v1/journals/editor/rename',
      operationId: 'renameJournal',
      summary: 'Rename a journal',
      body: renameBody,
      example: { journal_id: '3f0b2c1e-…', title: 'Cell biology' },
      success: { status: 200, description: 'renamed', schema: journalRenameResponseSchema },
      errors: WRITE,
    },
    {
      method: 'delete',
      path: '/v1/journals/editor/delete/{journal_id}',
      operationId: 'deleteJournal',
      summary: 'Move a journal to the trash (permanent=true: purge it and its history); its editors are closed',
      params: JOURNAL,
      query: deleteQuery,
      success: { status: 200, description: 'deleted', schema: journalDeleteResponseSchema },
      errors: READ,
    },
    pagedList({ path: '/v1/journals/trash', operationId: 'listTrash', summary: "The key's deleted journals, paged", schema: journalTrashResponseSchema }),
    {
      method: 'post',
      path: '/v1/journals/editor/restore/{journal_id}',
      operationId: 'restoreJournal',
      summary: 'Bring a journal back from the trash',
      params: JOURNAL,
      success: { status: 200, description: 'restored', schema: journalRestoreResponseSchema },
      errors: WRITE,
    },
  ]),
  ...tagged('Realtime', [
    {
      method: 'post',
      path: '/v1/journals/editor/session',
      operationId: 'editorSession',
      summary: 'An editor token and the WebSocket URL for a browser editor',
      description: 'Connect with y-websocket to `server_url`, room = journal id, `params: { token }` (docs/realtime.md). The WebSocket endpoint itself, `GET /v1/journals/realtime/{journal_id}`, is an upgrade, not described here.',
      body: sessionBody,
      example: { journal_id: '3f0b2c1e-…' },
      success: { status: 200, description: 'a token', schema: sessionResponseSchema },
      errors: WRITE,
    },
  ]),
  ...tagged('Versions', [
    {
      method: 'post',
      path: '/v1/journals/versions/{journal_id}',
      operationId: 'createVersion',
      summary: 'Take a named version of the journal',
      params: JOURNAL,
      body: versionCreateBody,
      example: { name: 'Before the exam' },
      success: { status: 200, description: 'the version', schema: versionCreateResponseSchema },
      errors: WRITE,
    },
    {
      method: 'get',
      path: '/v1/journals/versions/{journal_id}',
      operationId: 'listVersions',
      summary: "The journal's versions, newest first, paged",
      params: JOURNAL,
      query: pageQuery,
      success: { status: 200, description: 'a page', schema: versionListResponseSchema },
      errors: READ,
    },
    {
      method: 'get',
      path: '/v1/journals/versions/{journal_id}/diff',
      operationId: 'diffVersions',
      summary: 'Block-level changes between two versions, or a version and now',
      params: JOURNAL,
      query: diffQuery,
      success: { status: 200, description: 'the changes', schema: versionDiffResponseSchema },
      errors: READ,
    },
    {
      method: 'get',
      path: '/v1/journals/versions/{journal_id}/{version_id}',
      operationId: 'getVersion',
      summary: 'The journal at a version (markdown and/or model)',
      params: { ...JOURNAL, version_id: 'the version id' },
      query: formatQuery,
      success: { status: 200, description: 'the version', schema: versionGetResponseSchema },
      errors: READ,
    },
    {
      method: 'post',
      path: '/v1/journals/versions/{journal_id}/{version_id}/restore',
      operationId: 'restoreVersion',
      summary: 'Make the journal equal to a version, live',
      params: { ...JOURNAL, version_id: 'the version id' },
      body: restoreBody,
      example: { sync_realtime_state: true },
      success: { status: 200, description: 'restored', schema: versionRestoreResponseSchema },
      errors: WRITE,
    },
  ]),
  ...tagged('Practice', [
    {
      method: 'post',
      path: '/v1/interactives/practice/create',
      operationId: 'createPracticeSet',
      summary: 'A practice set, generated by a job (webhook when done)',
      body: practiceCreateBody,
      example: { set_description: 'linear equations in one variable', count: 5, problem_type: 'mixed', difficulty: 'medium' },
      idempotent: true,
      success: { status: 200, description: 'accepted; poll the status', schema: practiceSetCreateResponseSchema },
      errors: CREATE,
    },
    {
      method: 'get',
      path: '/v1/interactives/practice/status/{set_id}',
      operationId: 'practiceSetStatus',
      summary: 'Progress, then the problems',
      params: { set_id: 'the set id' },
      success: { status: 200, description: 'the status', schema: practiceSetStatusResponseSchema },
      errors: READ,
    },
    pagedList({ path: '/v1/interactives/practice/list', operationId: 'listPracticeSets', summary: "The key's sets, paged", schema: practiceSetListResponseSchema }),
    {
      method: 'delete',
      path: '/v1/interactives/practice/delete/{set_id}',
      operationId: 'deletePracticeSet',
      summary: 'Delete a set; a running one stops and is refunded for what was not made',
      params: { set_id: 'the set id' },
      success: { status: 200, description: 'deleted', schema: practiceSetDeleteResponseSchema },
      errors: READ,
    },
    {
      method: 'post',
      path: '/v1/interactives/practice/grade',
      operationId: 'gradeAnswer',
      summary: 'Grade one answer (choice, math, text, rubric)',
      body: gradeBody,
      example: { problem: { problem_type: 'frq', problem_statement: 'What is the unit of life?', user_answer: 'the cell', correct_answer: 'The cell' } },
      success: { status: 200, description: 'the grade', schema: gradeResponseSchema },
      errors: [...CREATE, 502],
    },
  ]),
  ...tagged('Flashcards', [
    {
      method: 'post',
      path: '/v1/interactives/flashcards/create',
      operationId: 'createDeck',
      summary: 'A stored deck of cards from a journal or text',
      body: flashcardCreateBody,
      example: { journal_id: '3f0b2c1e-…', count: 10 },
      idempotent: true,
      success: { status: 200, description: 'the deck', schema: deckCreateResponseSchema },
      errors: WRITE,
    },
    pagedList({ path: '/v1/interactives/flashcards/list', operationId: 'listDecks', summary: "The key's decks, paged", schema: deckListResponseSchema }),
    {
      method: 'get',
      path: '/v1/interactives/flashcards/{deck_id}',
      operationId: 'getDeck',
      summary: 'One deck',
      params: { deck_id: 'the deck id' },
      success: { status: 200, description: 'the deck', schema: deckResponseSchema },
      errors: READ,
    },
    {
      method: 'delete',
      path: '/v1/interactives/flashcards/delete/{deck_id}',
      operationId: 'deleteDeck',
      summary: 'Delete a deck',
      params: { deck_id: 'the deck id' },
      success: { status: 200, description: 'deleted', schema: deckDeleteResponseSchema },
      errors: READ,
    },
  ]),
  ...tagged('Videos', [
    {
      method: 'post',
      path: '/v1/video/create',
      operationId: 'createVideo',
      summary: 'A narrated video from a journal or text, rendered by a job',
      body: videoCreateBody,
      example: { journal_id: '3f0b2c1e-…', max_duration_seconds: 120 },
      idempotent: true,
      success: { status: 200, description: 'accepted; poll the status', schema: videoCreateResponseSchema },
      errors: [...CREATE, 404],
    },
    {
      method: 'get',
      path: '/v1/video/status/{video_id}',
      operationId: 'videoStatus',
      summary: 'Progress, then the result',
      params: { video_id: 'the video id' },
      success: { status: 200, description: 'the status', schema: videoStatusResponseSchema },
      errors: READ,
    },
    {
      method: 'get',
      path: '/v1/video/download/{video_id}',
      operationId: 'downloadVideo',
      summary: 'The MP4 (Range requests answered with 206)',
      params: { video_id: 'the video id' },
      success: { status: 200, description: 'the video', contentType: 'video/mp4' },
      extra: { 206: { description: 'the range asked for (Range header)', contentType: 'video/mp4' } },
      errors: [...READ, 409, 410],
    },
    {
      method: 'get',
      path: '/v1/video/captions/{video_id}',
      operationId: 'videoCaptions',
      summary: 'The captions (WebVTT)',
      params: { video_id: 'the video id' },
      success: { status: 200, description: 'the captions', contentType: 'text/vtt; charset=utf-8' },
      extra: { 206: { description: 'the range asked for (Range header)', contentType: 'text/vtt; charset=utf-8' } },
      errors: [...READ, 409, 410],
    },
    pagedList({ path: '/v1/video/list', operationId: 'listVideos', summary: "The key's videos, paged", schema: videoListResponseSchema }),
    {
      method: 'delete',
      path: '/v1/video/delete/{video_id}',
      operationId: 'deleteVideo',
      summary: 'Delete a video and its files; a running render stops and is refunded',
      params: { video_id: 'the video id' },
      success: { status: 200, description: 'deleted', schema: videoDeleteResponseSchema },
      errors: READ,
    },
  ]),
  ...tagged('Organization', [
    {
      method: 'get',
      path: '/v1/usage',
      operationId: 'usage',
      summary: 'Balance, limits in force with what is left, requests per window, spend per day and endpoint, prices',
      query: usageQuery,
      success: { status: 200, description: 'the report', schema: usageResponseSchema },
      errors: [422],
    },
    {
      method: 'get',
      path: '/v1/keys',
      operationId: 'listKeys',
      summary: "The organization's keys, newest first, paged (admin keys only; never the secrets)",
      query: keyListQuery,
      success: { status: 200, description: 'a page', schema: keyListResponseSchema },
      errors: [403, 422],
    },
    {
      method: 'post',
      path: '/v1/keys',
      operationId: 'createKey',
      summary: 'Create a key of the organization (admin keys only); the secret is shown once',
      body: createKeyBody,
      example: { name: 'CI pipeline', role: 'member' },
      success: { status: 201, description: 'created', schema: keyCreateResponseSchema },
      errors: [403, 413, 415, 422],
    },
    {
      method: 'delete',
      path: '/v1/keys/{key_id}',
      operationId: 'revokeKey',
      summary: "Revoke a key (admin keys only): refused at once, its editor connections closed; 409 for the organization's last admin key",
      params: { key_id: 'the key id' },
      success: { status: 200, description: 'revoked', schema: keyRevokeResponseSchema },
      errors: [403, 404, 409],
    },
  ]),
];
