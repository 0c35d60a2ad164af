/**
 * The compiled server (`npm start` runs dist/server/main.mjs, scripts/build-server.mjs): the paths
 * that load on first use — the worker thread's own bundle, the grader, the practice engines — work
 * from the build as they do from source.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { killChildServers, prepareDataDir, startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { openApiDocument } from '../../server/openapi/document.ts';
import { ENDPOINTS } from '../../server/endpoints.ts';
import { Client } from '../helpers/server.ts';
import { createSet, grade, until, waitForSet } from '../practice-api/helpers.ts';

let server: ChildServer;
let c: Client;

beforeAll(async () => {
  const { dataDir, key, orgId } = await prepareDataDir();
  server = await startChildServer(dataDir);
  c = new Client(server.url, key, orgId);
});
afterAll(() => killChildServers());

it('imports and exports a document large enough for the worker thread', async () => {
  const markdown = Array.from({ length: 300 }, (_, i) => `## Section ${i}\n\nSome *text* with a [link](https://example.org/${i}).\n`).join('\n');
  expect(markdown.length).toBeGreaterThan(10_000);
  const id = await c.importMarkdown(markdown);
  expect(await c.content(id)).toBe(markdown);
});

it('grades with the offline grader and makes a practice set with the offline engines', async () => {
  const g = await grade(c, { problem_type: 'frq', problem_statement: 'Simplify', user_answer: '3x^2+2', correct_answer: '2 + 3*x^2' });
  expect(g).toMatchObject({ score: 1, max_score: 1, engine: 'offline' });
  const set = await waitForSet(c, await createSet(c, { set_description: 'quadratic equations', count: 2 }));
  expect(set.status).toBe('completed');
  expect(set.response.problems).toHaveLength(2);
});

it('answers 422 from the worker for markdown past its limits, by the error class it names', async () => {
  const deep = `${'> '.repeat(5000)}x\n`;
  const r = await c.put('/v1/journals/editor/import_from_markdown', { markdown: deep });
  expect(r.status).toBe(422);
});

it('answers a request accepted while it is still starting (the port is bound before storage opens)', async () => {
  const net = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const { dataDir } = await prepareDataDir();
  const starting = startChildServer(dataDir, { PORT: String(port) });
  // The first connection the port accepts, polled every millisecond from spawn.
  const socket = await new Promise<import('node:net').Socket>((resolve) => {
    const attempt = () => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => resolve(s));
      s.once('error', () => setTimeout(attempt, 1));
    };
    attempt();
  });
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  const answer = await new Promise<string>((resolve, reject) => {
    let text = '';
    socket.on('data', (d) => (text += d));
    socket.once('end', () => resolve(text));
    setTimeout(() => reject(new Error(`no answer within 10 s; got ${JSON.stringify(text)}`)), 10_000);
  });
  expect(answer).toMatch(/^HTTP\/1\.1 200/);
  await starting;
});

it('decodes a JSON body sent in UTF-16 (the charset decoder loads on first use in the build)', async () => {
  const body = Buffer.from(JSON.stringify({ title: 'Grüße in UTF-16' }), 'utf16le');
  const res = await fetch(`${server.url}/v1/journals/editor/create`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${c.key}`, 'content-type': 'application/json; charset=utf-16le' },
    body,
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { title: string }).title).toBe('Grüße in UTF-16');
});

it('serves the API description the source makes, and the docs page with its assets from node_modules', async () => {
  const built = await (await fetch(`${server.url}/v1/openapi.json`)).json();
  expect(built).toEqual(JSON.parse(JSON.stringify(openApiDocument(ENDPOINTS))));
  const html = await (await fetch(`${server.url}/docs`)).text();
  const assets = [...html.matchAll(/(?:href|src)="(\/docs\/[^"]+)"/g)].map((m) => m[1]!);
  expect(assets.length).toBeGreaterThanOrEqual(4);
  for (const asset of assets) {
    const res = await fetch(server.url + asset);
    expect(res.status, asset).toBe(200);
    expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(10);
  }
});

it('starts from a code cache V8 rejects (another build wrote it), and replaces it', async () => {
  // scripts/server-launcher.mjs keeps the compiled bundle next to it, per Node version.
  const cache = path.resolve(import.meta.dirname, `../../dist/server/server.cjs.${process.version}.cache`);
  const garbage = Buffer.from('not a code cache of this build');
  writeFileSync(cache, garbage);
  const { dataDir, key, orgId } = await prepareDataDir();
  const other = await startChildServer(dataDir);
  const client = new Client(other.url, key, orgId);
  expect((await client.get('/healthz')).status).toBe(200);
  await until(() => !readFileSync(cache).equals(garbage), 'the code cache rewritten', 15_000);
  expect(readFileSync(cache).length).toBeGreaterThan(100_000);
});

it('reads the bundle as UTF-8: patterns written with non-ASCII characters match as they do from source', async () => {
  // esbuild leaves regular expression literals as written; read as Latin-1, `•`, `—`, `€` or `π`
  // in a pattern would never match in the build (a rubric's bullets went unread, a price in euros
  // was not a number).
  const bundle = readFileSync(path.join('dist', 'server', 'server.cjs'), 'utf8');
  expect(/[•—€π]/.test(bundle), 'the bundle still holds such patterns: this case must exercise them').toBe(true);
  const problems = [
    {
      problem_type: 'frq',
      problem_statement: 'Explain how plants make their food.',
      scoring_details: '• 1 mark: names photosynthesis\n• 1 mark: sunlight as the energy source\n• 1 mark: carbon dioxide and water as the raw materials',
      user_answer: 'Plants use photosynthesis: with energy from sunlight they turn carbon dioxide and water into glucose.',
    },
    { problem_type: 'frq', problem_statement: 'What does the ticket cost?', correct_answer: '€12.50', user_answer: '€12.5' },
  ];
  const { gradeAnswer } = await import('../../server/practice/grading/index.ts');
  for (const problem of problems) {
    const built = await grade(c, problem);
    const source = gradeAnswer(problem as never);
    expect({ score: built.score, max_score: built.max_score }, problem.problem_statement).toEqual({ score: source.score, max_score: source.max_score });
  }
});
