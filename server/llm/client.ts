/**
 * A small client for OpenAI-compatible chat completions with JSON-schema output
 * (`response_format: {type: "json_schema"}`), over plain fetch: one endpoint is all we use, and
 * owning the loop keeps timeouts, retries and the handling of the key in one visible place.
 *
 * Every call has a timeout; transient failures (network errors, timeouts, 408, 409, 429, 5xx) and
 * replies that do not match the schema are retried with exponential backoff and jitter (a 429's
 * Retry-After is honoured up to 30 s). Errors carry a message fit for a user: the status and the
 * provider's own error text, never the key or the request headers.
 */
import type { z } from 'zod';

export interface LlmConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export class LlmError extends Error {
  constructor(
    message: string,
    /** Worth another try later (the provider was unavailable), as opposed to a refusal or bad output. */
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

const RETRY_STATUS = new Set([408, 409, 429, 500, 502, 503, 504]);
const MAX_ERROR_TEXT = 300;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function providerError(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string };
    const m = typeof j.error === 'string' ? j.error : j.error?.message;
    if (m) return m.slice(0, MAX_ERROR_TEXT);
  } catch {
    /* not JSON */
  }
  return text.slice(0, MAX_ERROR_TEXT);
}

export class LlmClient {
  readonly engine: string;

  constructor(readonly config: LlmConfig) {
    this.engine = `llm:${config.model}`;
  }

  private get endpoint(): string {
    return `${this.config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  /**
   * Asks for one JSON object matching `jsonSchema` and validates it with `schema` (and `check`,
   * for rules a schema cannot say). Retries as described above; throws LlmError at the end.
   */
  async json<T>(
    messages: ChatMessage[],
    name: string,
    jsonSchema: Record<string, unknown>,
    schema: z.ZodType<T>,
    opts: { signal?: AbortSignal; check?: (value: T) => string | undefined; temperature?: number } = {},
  ): Promise<T> {
    const { maxAttempts, retryBaseMs } = this.config;
    let last: LlmError | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) {
        const delay = last && 'retryAfterMs' in last ? (last as LlmError & { retryAfterMs: number }).retryAfterMs : retryBaseMs * 2 ** (attempt - 2);
        await sleep(Math.round(delay * (0.75 + Math.random() * 0.5)), opts.signal);
      }
      try {
        const content = await this.complete(messages, name, jsonSchema, opts.temperature ?? 0.7, opts.signal);
        let parsed: unknown;
        try {
          parsed = JSON.parse(content);
        } catch {
          throw new LlmError(`the model's reply is not valid JSON: ${content.slice(0, 120)}`, false);
        }
        const r = schema.safeParse(parsed);
        if (!r.success) {
          const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
          throw new LlmError(`the model's reply does not match the ${name} schema (${issues})`, false);
        }
        const problem = opts.check?.(r.data);
        if (problem) throw new LlmError(`the model's reply is inconsistent: ${problem}`, false);
        return r.data;
      } catch (err) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        if (!(err instanceof LlmError)) throw err;
        last = err;
        // A refusal (401, 400, ...) will not change; bad output and outages may.
        if (err.message.startsWith('refused:')) break;
      }
    }
    throw last ?? new LlmError('no attempt was made', false);
  }

  /** One HTTP call; returns the assistant message content. */
  private async complete(
    messages: ChatMessage[],
    name: string,
    jsonSchema: Record<string, unknown>,
    temperature: number,
    signal?: AbortSignal,
  ): Promise<string> {
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let res: Response;
    try {
      res = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        signal: combined,
        body: JSON.stringify({
          model: this.config.model,
          messages,
          temperature,
          response_format: { type: 'json_schema', json_schema: { name, strict: true, schema: jsonSchema } },
        }),
      });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) throw new LlmError(`the LLM provider did not answer within ${this.config.timeoutMs} ms`, true);
      throw new LlmError(`the LLM provider could not be reached (${(err as Error).cause ? String((err as { cause: Error }).cause.message ?? (err as Error).cause) : (err as Error).message})`, true);
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      if (signal?.aborted) throw signal.reason;
      throw new LlmError(`the LLM provider's reply was cut off or took longer than ${this.config.timeoutMs} ms`, true);
    }
    if (!res.ok) {
      const msg = `the LLM provider answered HTTP ${res.status}: ${providerError(text)}`;
      if (!RETRY_STATUS.has(res.status)) throw new LlmError(`refused: ${msg}`, false);
      const err = new LlmError(msg, true) as LlmError & { retryAfterMs?: number };
      const ra = Number(res.headers.get('retry-after'));
      if (res.status === 429 && Number.isFinite(ra) && ra > 0) err.retryAfterMs = Math.min(30_000, ra * 1000);
      throw err;
    }
    let body: { choices?: { message?: { content?: string | null; refusal?: string | null } }[] };
    try {
      body = JSON.parse(text);
    } catch {
      throw new LlmError('the LLM provider answered with something that is not a chat completion (not JSON)', false);
    }
    const message = body.choices?.[0]?.message;
    if (message?.refusal) throw new LlmError(`refused: the model declined: ${message.refusal.slice(0, MAX_ERROR_TEXT)}`, false);
    if (typeof message?.content !== 'string') throw new LlmError('the LLM provider answered without choices[0].message.content', false);
    return message.content;
  }
}
