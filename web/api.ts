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
import type { SessionResponse } from '../server/realtime/schema.ts';

export type { KeyCreateResponse, KeyListResponse, UsageReport, SessionResponse, JournalListResponse };
export type KeyInfo = KeyListResponse['keys'][number];
export type JournalListItem = JournalListResponse['journals'][number];

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
