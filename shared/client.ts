/**
 * A small client of the REST API for scripts and the bulk command line. Runs wherever `fetch`
 * does (Node 20, browsers). 429 answers are waited out: the client sleeps for `Retry-After`
 * (or an exponential backoff when the header is missing, whichever is longer) and tries again;
 * 5xx answers and network errors are retried with the same backoff a few times.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Attempts for one request, counting the first. */
  maxAttempts?: number;
  /** First backoff step in ms; doubles per attempt, capped at maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Told whenever the client waits, e.g. to show "rate limited, waiting 3 s". */
  onWait?: (info: { status: number | 'network'; waitMs: number; attempt: number }) => void;
  sleep?: (ms: number) => Promise<void>;
}

export interface JournalSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

function errorMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; detail?: { loc?: unknown[]; msg?: string }[] };
    if (typeof b.error === 'string') return `${status}: ${b.error}`;
    if (Array.isArray(b.detail)) return `${status}: ${b.detail.map((d) => `${(d.loc ?? []).join('.')}: ${d.msg}`).join('; ')}`;
  }
  return `HTTP ${status}`;
}

export class StudyClient {
  private readonly base: string;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ClientOptions) {
    const trimmed = opts.baseUrl.replace(/\/+$/, '');
    this.base = trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`;
    this.maxAttempts = opts.maxAttempts ?? 8;
    this.backoffMs = opts.backoffMs ?? 500;
    this.maxBackoffMs = opts.maxBackoffMs ?? 60_000;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  private backoff(attempt: number): number {
    const step = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (attempt - 1));
    return step / 2 + Math.random() * (step / 2); // jitter keeps parallel workers apart
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(this.base + path, {
          method,
          headers: {
            authorization: `Bearer ${this.opts.apiKey}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        if (attempt >= this.maxAttempts) throw err;
        const waitMs = this.backoff(attempt);
        this.opts.onWait?.({ status: 'network', waitMs, attempt });
        await this.sleep(waitMs);
        continue;
      }
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON: keep the text */
      }
      if (res.ok) return parsed as T;
      const retriable = res.status === 429 || res.status >= 500;
      if (!retriable || attempt >= this.maxAttempts) throw new ApiError(res.status, parsed, errorMessage(res.status, parsed));
      const retryAfter = Number(res.headers.get('retry-after'));
      const waitMs = Math.max(Number.isFinite(retryAfter) ? retryAfter * 1000 : 0, this.backoff(attempt));
      this.opts.onWait?.({ status: res.status, waitMs, attempt });
      await this.sleep(waitMs);
    }
  }

  importMarkdown(markdown: string, title?: string): Promise<{ journal_id: string; journal_url: string }> {
    return this.request('PUT', '/journals/editor/import_from_markdown', { markdown, ...(title ? { title } : {}) });
  }

  content(id: string): Promise<{ title: string; journal_id: string; content: string; revision: number }> {
    return this.request('GET', `/journals/content/${encodeURIComponent(id)}`);
  }

  async *listAll(pageSize = 100): AsyncGenerator<JournalSummary> {
    let token: number | undefined;
    do {
      const page: { journals: JournalSummary[]; next_page_token?: number } = await this.request(
        'GET',
        `/journals/list?page_size=${pageSize}${token !== undefined ? `&page_token=${token}` : ''}`,
      );
      yield* page.journals;
      token = page.next_page_token;
    } while (token !== undefined);
  }
}
