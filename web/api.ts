/**
 * The REST client of the app: same origin, the API key only in the `Authorization` header (never
 * in a URL). Answers are typed with the server's own zod schemas (`import type`: nothing of the
 * server is bundled). A refusal becomes an ApiError whose message is the API's own words.
 */
import type { KeyCreateResponse, KeyListResponse, KeyRevokeResponse } from '../server/keys/schema.ts';
import type {
  JournalContentResponse,
  JournalCreateResponse,
  JournalDeleteResponse,
  JournalImportResponse,
  JournalListResponse,
  JournalRenameResponse,
} from '../server/journals/schema.ts';
import type { UsageReport } from '../server/billing/usage-schema.ts';
import type { CommentView } from '../server/journals/comments/schema.ts';
import type { PublishResponse } from '../server/journals/publish/endpoints.ts';
import type { ChildrenResponse, MoveResponse } from '../server/journals/nesting/endpoints.ts';
import type { JournalTrashResponse, JournalRestoreResponse } from '../server/journals/schema.ts';
import type { VersionCreateResponse, VersionDiffResponse, VersionListResponse, VersionRestoreResponse } from '../server/journals/versions/schema.ts';
import type { PracticeSetCreateResponse, PracticeSetListResponse } from '../server/practice/schema.ts';
import type { VideoCreateResponse, VideoListResponse } from '../server/video/schema.ts';
import type { SessionResponse } from '../server/realtime/schema.ts';

export type { KeyCreateResponse, KeyListResponse, UsageReport, SessionResponse, JournalListResponse };
export type KeyInfo = KeyListResponse['keys'][number];
export type JournalListItem = JournalListResponse['journals'][number];
export type { CommentView, PublishResponse, VersionDiffResponse, JournalTrashResponse };
export type VersionInfo = VersionListResponse['versions'][number];
export type TrashItem = JournalTrashResponse['journals'][number];

/** Answers the app reads only in part (typed by what it reads). */
export interface PracticeStatus {
  set_id: string;
  status: 'pending' | 'completed' | 'failed' | 'status_error';
  total_problems: number;
  completed_problems: number;
  message: string;
  set_name: string | null;
  response?: { problems: { problem_statement: string; correct_answer: string; answer_choices: Record<string, string>; explanation: string }[] };
}
export interface VideoStatus {
  video_id: string;
  status: 'pending' | 'completed' | 'failed' | 'status_error';
  message: string;
  completion_percentage: number;
  response?: { title: string; transcript: string; duration_seconds: number };
}
export interface Deck {
  deck_id: string;
  flashcards: { front: string; back: string }[];
  journal_id: string | null;
  created_at?: string;
}
export interface DeckListItem {
  deck_id: string;
  journal_id: string | null;
  card_count: number;
  created_at: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds, from the Retry-After header of a 429. */
    readonly retryAfter: number | null = null,
    readonly body: unknown = undefined,
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: unknown;
  detail?: { loc?: unknown[]; msg?: unknown }[];
  balance?: unknown;
  required?: unknown;
}

/** The API's words for a refusal: `{error}` as is, a 422's `detail` as `where: what`, plus what the status adds. */
export function errorMessage(status: number, body: unknown, retryAfter: number | null): string {
  const b = (body && typeof body === 'object' ? body : {}) as ErrorBody;
  let text: string;
  if (typeof b.error === 'string') text = b.error;
  else if (Array.isArray(b.detail)) text = b.detail.map((d) => `${(d.loc ?? []).join('.')}: ${String(d.msg ?? '')}`).join('; ');
  else if (typeof body === 'string' && body.trim()) text = body.trim().slice(0, 300);
  else text = `The service answered ${status}`;
  if (status === 402 && typeof b.balance === 'number' && typeof b.required === 'number') text += ` (balance $${b.balance}, required $${b.required})`;
  if (status === 429 && retryAfter !== null) text += ` Retry after ${retryAfter} s.`;
  return `${status}: ${text}`;
}

export class Api {
  constructor(private readonly key: string) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    } catch (err) {
      throw new ApiError(0, `The service cannot be reached: ${(err as Error).message}`);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: kept as text */
    }
    if (!res.ok) {
      const ra = res.headers.get('retry-after');
      const retryAfter = ra !== null && /^\d+$/.test(ra) ? Number(ra) : null;
      throw new ApiError(res.status, errorMessage(res.status, parsed, retryAfter), retryAfter, parsed);
    }
    return parsed as T;
  }

  listJournals(pageSize: number, pageToken?: string): Promise<JournalListResponse> {
    const q = new URLSearchParams({ page_size: String(pageSize) });
    if (pageToken) q.set('page_token', pageToken);
    return this.request('GET', `/v1/journals/list?${q}`);
  }
  createJournal(title?: string): Promise<JournalCreateResponse> {
    return this.request('PUT', '/v1/journals/editor/create', title ? { title } : {});
  }
  importMarkdown(markdown: string, title?: string): Promise<JournalImportResponse> {
    return this.request('PUT', '/v1/journals/editor/import_from_markdown', { markdown, ...(title ? { title } : {}) });
  }
  content(id: string): Promise<JournalContentResponse> {
    return this.request('GET', `/v1/journals/content/${encodeURIComponent(id)}`);
  }
  rename(id: string, title: string): Promise<JournalRenameResponse> {
    return this.request('PATCH', '/v1/journals/editor/rename', { journal_id: id, title });
  }
  deleteJournal(id: string): Promise<JournalDeleteResponse> {
    return this.request('DELETE', `/v1/journals/editor/delete/${encodeURIComponent(id)}`);
  }
  trash(): Promise<JournalTrashResponse> {
    return this.request('GET', '/v1/journals/trash?page_size=100');
  }
  restore(id: string): Promise<JournalRestoreResponse> {
    return this.request('POST', `/v1/journals/editor/restore/${encodeURIComponent(id)}`);
  }
  purge(id: string): Promise<JournalDeleteResponse> {
    return this.request('DELETE', `/v1/journals/editor/delete/${encodeURIComponent(id)}?permanent=true`);
  }
  versions(id: string): Promise<VersionListResponse> {
    return this.request('GET', `/v1/journals/versions/${encodeURIComponent(id)}?page_size=100`);
  }
  saveVersion(id: string, name?: string): Promise<VersionCreateResponse> {
    return this.request('POST', `/v1/journals/versions/${encodeURIComponent(id)}`, name ? { name } : {});
  }
  diff(id: string, from: string, to = 'current'): Promise<VersionDiffResponse> {
    return this.request('GET', `/v1/journals/versions/${encodeURIComponent(id)}/diff?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  }
  restoreVersion(id: string, versionId: string): Promise<VersionRestoreResponse> {
    return this.request('POST', `/v1/journals/versions/${encodeURIComponent(id)}/${encodeURIComponent(versionId)}/restore`, { sync_realtime_state: true });
  }
  comments(id: string): Promise<{ comments: CommentView[] }> {
    return this.request('GET', `/v1/journals/${encodeURIComponent(id)}/comments`);
  }
  comment(id: string, body: { block_id: string; from?: number; to?: number; body: string; author_name?: string }): Promise<CommentView> {
    return this.request('POST', `/v1/journals/${encodeURIComponent(id)}/comments`, body);
  }
  reply(id: string, commentId: string, body: string, authorName?: string): Promise<{ comment: CommentView }> {
    return this.request('POST', `/v1/journals/${encodeURIComponent(id)}/comments/${encodeURIComponent(commentId)}/replies`, { body, ...(authorName ? { author_name: authorName } : {}) });
  }
  resolveComment(id: string, commentId: string, resolved: boolean): Promise<{ comment: CommentView }> {
    return this.request('POST', `/v1/journals/${encodeURIComponent(id)}/comments/${encodeURIComponent(commentId)}/${resolved ? 'resolve' : 'reopen'}`);
  }
  deleteComment(id: string, commentId: string): Promise<unknown> {
    return this.request('DELETE', `/v1/journals/${encodeURIComponent(id)}/comments/${encodeURIComponent(commentId)}`);
  }
  publish(id: string, slug?: string): Promise<PublishResponse> {
    return this.request('POST', `/v1/journals/${encodeURIComponent(id)}/publish`, slug ? { slug } : {});
  }
  unpublish(id: string): Promise<PublishResponse> {
    return this.request('POST', `/v1/journals/${encodeURIComponent(id)}/unpublish`);
  }
  move(id: string, parent: string | null, index?: number): Promise<MoveResponse> {
    return this.request('PATCH', '/v1/journals/editor/move', { journal_id: id, parent_item: parent, ...(index !== undefined ? { index } : {}) });
  }
  children(id: string): Promise<ChildrenResponse> {
    return this.request('GET', `/v1/journals/${encodeURIComponent(id)}/children`);
  }
  createPractice(description: string, count: number, name: string): Promise<PracticeSetCreateResponse> {
    return this.request('POST', '/v1/interactives/practice/create', { set_description: description, count, set_name: name, search_for_problems: true });
  }
  practiceStatus(setId: string): Promise<PracticeStatus> {
    return this.request('GET', `/v1/interactives/practice/status/${encodeURIComponent(setId)}`);
  }
  practiceSets(): Promise<PracticeSetListResponse> {
    return this.request('GET', '/v1/interactives/practice/list?page_size=100');
  }
  deletePractice(setId: string): Promise<unknown> {
    return this.request('DELETE', `/v1/interactives/practice/delete/${encodeURIComponent(setId)}`);
  }
  createVideo(journalId: string, maxSeconds: number): Promise<VideoCreateResponse> {
    return this.request('POST', '/v1/video/create', { journal_id: journalId, max_duration_seconds: maxSeconds });
  }
  videoStatus(videoId: string): Promise<VideoStatus> {
    return this.request('GET', `/v1/video/status/${encodeURIComponent(videoId)}`);
  }
  videos(): Promise<VideoListResponse> {
    return this.request('GET', '/v1/video/list?page_size=100');
  }
  deleteVideo(videoId: string): Promise<unknown> {
    return this.request('DELETE', `/v1/video/delete/${encodeURIComponent(videoId)}`);
  }
  /** The MP4 as a Blob (the key goes in the header, so a <video> plays it from an object URL). */
  async videoFile(videoId: string): Promise<Blob> {
    const res = await fetch(`/v1/video/download/${encodeURIComponent(videoId)}`, { headers: { authorization: `Bearer ${this.key}` }, cache: 'no-store' });
    if (!res.ok) throw new ApiError(res.status, errorMessage(res.status, await res.json().catch(() => undefined), null));
    return res.blob();
  }
  createDeck(journalId: string, count: number): Promise<Deck> {
    return this.request('POST', '/v1/interactives/flashcards/create', { journal_id: journalId, count });
  }
  deck(deckId: string): Promise<Deck> {
    return this.request('GET', `/v1/interactives/flashcards/${encodeURIComponent(deckId)}`);
  }
  decks(): Promise<{ decks: DeckListItem[] }> {
    return this.request('GET', '/v1/interactives/flashcards/list?page_size=100');
  }
  deleteDeck(deckId: string): Promise<unknown> {
    return this.request('DELETE', `/v1/interactives/flashcards/delete/${encodeURIComponent(deckId)}`);
  }
  editorSession(id: string): Promise<SessionResponse> {
    return this.request('POST', '/v1/journals/editor/session', { journal_id: id });
  }
  usage(days: number): Promise<UsageReport> {
    return this.request('GET', `/v1/usage?days=${days}`);
  }
  listKeys(pageToken?: string): Promise<KeyListResponse> {
    const q = new URLSearchParams({ page_size: '50' });
    if (pageToken) q.set('page_token', pageToken);
    return this.request('GET', `/v1/keys?${q}`);
  }
  createKey(name: string, role: 'admin' | 'member'): Promise<KeyCreateResponse> {
    return this.request('POST', '/v1/keys', { name, role });
  }
  revokeKey(keyId: string): Promise<KeyRevokeResponse> {
    return this.request('DELETE', `/v1/keys/${encodeURIComponent(keyId)}`);
  }
}
