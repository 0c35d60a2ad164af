/**
 * A small OpenAI-compatible chat-completions server on loopback for the LLM suites. It answers
 * problem requests with valid problems of the requested type by default; a test can replace the
 * reply (malformed content, an HTTP error) or hold replies until it releases them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startTestServer, type Client, type TestServer, type TestServerOptions } from '../helpers/server.ts';

export interface FakeRequest {
  n: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** 'practice_problem' or 'grade' (the json_schema name). */
  schema: string;
  /** Problem number (1-based) and type asked for, for problem requests. */
  problem?: number;
  type?: 'mcq' | 'frq' | 'select_all';
}

export type Reply = { status?: number; content?: string; raw?: string; headers?: Record<string, string> } | 'hang';

export interface FakeProvider {
  url: string;
  requests: FakeRequest[];
  reply: (r: FakeRequest) => Reply | Promise<Reply>;
  close(): Promise<void>;
}

export function goodProblem(r: FakeRequest): string {
  const i = r.problem ?? 0;
  const type = r.type ?? 'frq';
  if (type === 'frq') {
    return JSON.stringify({
      problem_type: 'frq',
      problem_statement: `Compute ${i} times 3. (fake ${i})`,
      correct_answer: String(3 * i),
      answer_choices: [],
      explanation: `${i} × 3 = ${3 * i}.`,
      scoring_details: `${3 * i}`,
    });
  }
  return JSON.stringify({
    problem_type: type,
    problem_statement: `${type === 'mcq' ? 'Which' : 'Select all'} numbers equal ${i} + ${i}? (fake ${i})`,
    correct_answer: type === 'mcq' ? 'b' : 'B, D',
    answer_choices: [
      { key: 'A', text: String(2 * i + 1) },
      { key: 'B', text: String(2 * i) },
      { key: 'C', text: String(2 * i + 2) },
      { key: 'D', text: `${i} × 2` },
    ].slice(0, type === 'mcq' ? 3 : 4),
    explanation: `${i} + ${i} = ${2 * i}.`,
    scoring_details: '',
  });
}

export function goodGrade(): string {
  return JSON.stringify({ score: 2, max_score: 3, explanation: 'Met: light, glucose. Missed: oxygen.', met: ['light', 'glucose'], missed: ['oxygen'] });
}

export function defaultReply(r: FakeRequest): Reply {
  return { content: r.schema === 'grade' ? goodGrade() : goodProblem(r) };
}

const TYPE_OF: [RegExp, FakeRequest['type']][] = [
  [/a multiple-choice question/, 'mcq'],
  [/a free-response question/, 'frq'],
  [/a "select all that apply" question/, 'select_all'],
];

export async function startFakeOpenAI(reply: FakeProvider['reply'] = defaultReply): Promise<FakeProvider> {
  const requests: FakeRequest[] = [];
  const provider: FakeProvider = { url: '', requests, reply, close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(raw);
      const user = body.messages.find((m: any) => m.role === 'user')?.content ?? '';
      const m = /Write problem (\d+) of (\d+)/.exec(user);
      const r: FakeRequest = {
        n: requests.length + 1,
        headers: req.headers,
        body,
        schema: body.response_format?.json_schema?.name ?? '',
        problem: m ? Number(m[1]) : undefined,
        type: TYPE_OF.find(([re]) => re.test(user))?.[1],
      };
      requests.push(r);
      const out = await provider.reply(r);
      if (out === 'hang') return; // never answered; the connection dies with the client or at close
      if (out.raw !== undefined) {
        res.writeHead(out.status ?? 200, { 'content-type': 'application/json', ...out.headers }).end(out.raw);
        return;
      }
      const completion = {
        id: `chatcmpl-${r.n}`,
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: out.content ?? '' } }],
      };
      res.writeHead(out.status ?? 200, { 'content-type': 'application/json', ...out.headers }).end(JSON.stringify(completion));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  provider.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return provider;
}

/**
 * The fake provider and a service configured to use it, for a test file: started before its tests
 * (then `ready`), the provider's answers reset to `defaultReply` before each test, both closed after.
 */
export function llmSuite(
  opts: { env?: Record<string, string>; logger?: TestServerOptions['logger'] },
  ready: (fake: FakeProvider, server: TestServer, client: Client) => void,
): void {
  let fake: FakeProvider | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    const env = { LLM_BASE_URL: fake.url, LLM_MODEL: 'fake-model', LLM_RETRY_BASE_MS: '5', LLM_TIMEOUT_MS: '5000', ...opts.env };
    server = await startTestServer({ env, logger: opts.logger });
    ready(fake, server, await server.newClient());
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });
  beforeEach(() => {
    if (fake) fake.reply = defaultReply;
  });
}
