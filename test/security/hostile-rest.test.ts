/**
 * Hostile but ordinary REST clients (a valid key of their own): each input here froze the event
 * loop, bricked a journal or answered 500 before. Every one must now be refused with a 422 that
 * names the limit, leave stored data untouched, and never hold /healthz past 250 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH } from '../../shared/limits.ts';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { expectResponsive, whileProbingHealth } from './health-probe.ts';
import { longGradeRequest } from './hostile-grading.ts';

let server: TestServer;
let c: Client;
let journalId: string;
let blockId: string;

beforeAll(async () => {
  // Small time limits keep the suite quick: 1 s plus 10 ms per KiB.
  server = await startTestServer({ env: { WORKER_TIME_LIMIT_BASE_MS: '1000', WORKER_TIME_LIMIT_MS_PER_KIB: '10' } });
  c = await server.newClient();
  journalId = await c.importMarkdown('# Kept\n\nThis text must survive every attack.\n');
  blockId = (await c.model(journalId)).model.content[1].attrs.id;
});
afterAll(() => server.close());

async function unchanged(): Promise<void> {
  expect(await c.content(journalId)).toBe('# Kept\n\nThis text must survive every attack.\n');
}

function expect422(r: { status: number; body: any }, locPrefix: (string | number)[], msg: RegExp): void {
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(422);
  expect(r.body.detail[0].loc.slice(0, locPrefix.length)).toEqual(locPrefix);
  expect(r.body.detail[0].msg).toMatch(msg);
}

/** Pathological inline markdown: each family is superlinear for the CommonMark parser. */
const hostile: Record<string, (chars: number) => string> = {
  'repeated *a': (n) => '*a'.repeat(n / 2),
  'repeated _a': (n) => '_a'.repeat(n / 2),
  'repeated [a': (n) => '[a'.repeat(n / 2),
  'repeated `a': (n) => '`a'.repeat(n / 2),
  'repeated <a': (n) => '<a'.repeat(n / 2),
  'repeated a**b*': (n) => 'a**b*'.repeat(n / 5),
};

describe('markdown never holds the event loop', () => {
  // markdown-it converts these in linear time (micromark did not): each is now converted or,
  // on a slow machine, refused by the time limit; either way /healthz keeps answering. 100 KB
  // of `*a` is 50,000 text runs: past what one edit may build (MAX_EDIT_TEXT_RUNS), also a 422.
  it('a 100 KB dry-run edit of `*a` converts or is refused with the limit named, while /healthz answers', async () => {
    const md = hostile['repeated *a']!(100_000);
    const probe = await whileProbingHealth(server.url, () =>
      c.edit(journalId, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: md }] }], { dry_run: true }),
    );
    if (probe.result.status !== 200) expect422(probe.result, ['body', 'operations'], /time limit .*ms per KiB|text runs per edit/);
    expect(probe.probes).toBeGreaterThan(0);
    expectResponsive(probe);
    await unchanged();
  });

  it.each(Object.keys(hostile))('a 40 KB edit of %s answers 422 or 200 without stalling', async (family) => {
    const md = hostile[family]!(40_000);
    const probe = await whileProbingHealth(server.url, () =>
      c.edit(journalId, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: md }] }], { dry_run: true }),
    );
    expect([200, 422]).toContain(probe.result.status);
    if (probe.result.status === 422) expect(probe.result.body.detail[0].msg).toMatch(/time limit/);
    expectResponsive(probe);
  });

  it('a hostile import too deep for the limit is refused in the worker and stores nothing', async () => {
    const before = (await c.get('/v1/journals/list?page_size=100')).body.journals.length;
    const probe = await whileProbingHealth(server.url, () =>
      c.put('/v1/journals/editor/import_from_markdown', { markdown: '> '.repeat(32_000) + hostile['repeated *a']!(64_000) }),
    );
    expect422(probe.result, ['body', 'markdown'], /nested too deeply/);
    expectResponsive(probe);
    expect((await c.get('/v1/journals/list?page_size=100')).body.journals.length).toBe(before);
  });

  it('many small operations count together: 400 x 1 KB of `*a` in one edit goes to the worker', async () => {
    const ops = Array.from({ length: 400 }, (_, i) => ({
      type: 'create_node',
      nodeType: 'paragraph',
      params: [{ content: `${i}` + hostile['repeated *a']!(1000) }],
    }));
    const probe = await whileProbingHealth(server.url, () => c.edit(journalId, ops, { dry_run: true }));
    expect([200, 422]).toContain(probe.result.status);
    expectResponsive(probe);
  });

  it('ordinary large markdown still converts within its limit', async () => {
    const md = Array.from({ length: 1500 }, (_, i) => `Paragraph ${i} with *emphasis*, a [link](https://example.com/${i}) and \`code\`.`).join('\n\n');
    const r = await c.edit(journalId, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: md }] }], { dry_run: true });
    expect(r.status).toBe(200);
    expect(r.body.results[0].data.nodeIds).toHaveLength(1500);
  });
});

describe('the time limit of a conversion', () => {
  let tight: TestServer;
  let t: Client;
  beforeAll(async () => {
    // The smallest limit the configuration takes, and no share per KiB: 900 KB of markdown takes
    // several times longer than 100 ms to convert, so the pool stops it.
    tight = await startTestServer({ env: { WORKER_TIME_LIMIT_BASE_MS: '100', WORKER_TIME_LIMIT_MS_PER_KIB: '0' } });
    t = await tight.newClient();
  });
  afterAll(() => tight.close());
  const big = 'Some *text* with a [link](https://example.com) and `code`.\n\n'.repeat(15_000);

  it('refuses an import past it with a 422 naming the limit, and stores nothing', async () => {
    const r = await t.put('/v1/journals/editor/import_from_markdown', { markdown: big });
    expect422(r, ['body', 'markdown'], /time limit .*ms per KiB/);
    expect((await t.get('/v1/journals/list?page_size=100')).body.journals).toEqual([]);
  });

  it('refuses grading past it with a 422 naming the limit', async () => {
    const r = await t.post('/v1/interactives/practice/grade', { problem: longGradeRequest() });
    expect422(r, ['body', 'problem', 'user_answer'], /could not be graded within its time limit/);
  });

  it('refuses an edit past it with a 422 naming the limit', async () => {
    const id = await t.importMarkdown('# small\n');
    const r = await t.edit(id, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: big }] }]);
    expect422(r, ['body', 'operations'], /time limit .*ms per KiB/);
    expect(await t.content(id)).toBe('# small\n');
  });
});

describe('nesting is limited', () => {
  const LIST_OK = (MAX_NESTING_DEPTH - 2) / 2;
  const deepList = (levels: number) => Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');

  it(`imports a list nested ${LIST_OK} deep (two levels each, plus its paragraph), and refuses one nested 150 deep`, async () => {
    const ok = await c.put('/v1/journals/editor/import_from_markdown', { markdown: deepList(LIST_OK) });
    expect(ok.status).toBe(200);
    expect(await c.content(ok.body.journal_id)).toContain(`- item ${LIST_OK - 1}`);
    const r = await c.put('/v1/journals/editor/import_from_markdown', { markdown: deepList(150) });
    expect422(r, ['body', 'markdown'], new RegExp(`at most ${MAX_NESTING_DEPTH} levels`));
  });

  it.each([
    ['quotes (2,000 `> `)', '> '.repeat(2000) + 'deep'],
    ['quotes (50,000 `> `)', '> '.repeat(50_000) + 'deep'],
    ['lists (1,500 `- `)', '- '.repeat(1500) + 'deep'],
    ['emphasis (300 levels)', '*a '.repeat(300) + 'b' + ' c*'.repeat(300)],
  ])('refuses %s on import and in edits', async (_name, md) => {
    const r = await c.put('/v1/journals/editor/import_from_markdown', { markdown: md });
    expect([422]).toContain(r.status);
    expect(r.body.detail[0].msg).toMatch(/nested too deeply|time limit/);
    const e = await c.edit(journalId, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: md }] }]);
    expect(e.status).toBe(422);
    await unchanged();
  });
});

describe('grading is bounded', () => {
  const grade = (problem: Record<string, unknown>) => c.post('/v1/interactives/practice/grade', { problem: { problem_type: 'frq', problem_statement: 'Answer', ...problem } });
  const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `w${((i * seed) % 100_000).toString(36)}`).join(' ');

  it('a mathematical answer nested 2,000 deep is read as too long, not parsed', async () => {
    const probe = await whileProbingHealth(server.url, () => grade({ correct_answer: '4x', user_answer: '('.repeat(2000) + 'x' + ')'.repeat(2000) }));
    expect(probe.result.status).toBe(200);
    expect(probe.result.body.score).toBe(0);
    expect(probe.result.body.explanation).toMatch(/too long to be read as mathematics \(at most 200 characters\)/);
    expectResponsive(probe);
  });

  it('a long reference is graded as text, not parsed as mathematics', async () => {
    const r = await grade({ correct_answer: Array(3000).fill('x').join('+'), user_answer: 'x' });
    expect(r.status).toBe(200);
    expect(r.body.method).toBe('rubric');
  });

  it('a rubric and an answer too large to compare are a 422 naming the limit', async () => {
    const probe = await whileProbingHealth(server.url, () => grade({ scoring_details: words(1400, 7919), user_answer: words(3000, 104_729) }));
    expect422(probe.result, ['body', 'problem', 'scoring_details'], /at most 400,000/);
    expectResponsive(probe);
  });

  it('a long essay against an ordinary rubric is graded', async () => {
    const essay = 'Water moves across the membrane from low to high solute concentration; this is osmosis. '.repeat(200);
    const r = await grade({ scoring_details: 'Mentions water\nMentions the membrane\nMentions concentration', user_answer: essay });
    expect(r.status).toBe(200);
    expect(r.body.score).toBe(3);
  });

  it('a long essay against a long rubric is graded in a worker thread, with the same grade as inline, while /healthz answers', async () => {
    const problem = longGradeRequest();
    const probe = await whileProbingHealth(server.url, () => c.post('/v1/interactives/practice/grade', { problem }));
    expect(probe.result.status, JSON.stringify(probe.result.body).slice(0, 300)).toBe(200);
    const inline = gradeAnswer(problem);
    expect(probe.result.body).toMatchObject({ score: inline.score, max_score: 110, explanation: inline.explanation });
    expect(probe.probes).toBeGreaterThanOrEqual(3);
    expectResponsive(probe);
  });

  it('a long answer with nothing to grade it by is still a 422 naming the field', async () => {
    const r = await c.post('/v1/interactives/practice/grade', { problem: longGradeRequest(false) });
    expect422(r, ['body', 'problem', 'correct_answer'], /needs a reference/);
  });
});

describe('bad JSON is a 422, never a 500', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('operation type %s', async (type) => {
    const r = await c.edit(journalId, [{ type, nodeId: blockId }]);
    expect422(r, ['body', 'operations', 0, 'type'], /Unknown operation type/);
    await unchanged();
  });

  it('a body field nested 100,000 deep, with an Idempotency-Key', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const raw = `{"journal_id":"${journalId}","operations":[{"type":"delete_node","nodeId":"${blockId}","x":${deep}}]}`;
    const r = await c.request('PATCH', '/v1/journals/editor/edit', raw, { 'idempotency-key': 'deep-1' });
    expect422(r, ['body', 'operations', 0, 'x'], /deeper than 64 levels/);
    await unchanged();
  });

  it.each(['/v1/journals/content/%ED%A0%80', '/v1/journals/content/%F0', '/v1/journals/editor/model/%uD800'])(
    'a path that is not percent-encoded UTF-8: %s',
    async (path) => {
      const r = await c.get(path);
      expect422(r, ['path'], /percent-encoded UTF-8/);
    },
  );

  it('lone surrogates in titles, markdown and operation content', async () => {
    const lone = 'a\ud800b';
    const cases: [Promise<any>, (string | number)[]][] = [
      [c.put('/v1/journals/editor/create', { title: lone }), ['body', 'title']],
      [c.patch('/v1/journals/editor/rename', { journal_id: journalId, title: `x\udc00` }), ['body', 'title']],
      [c.put('/v1/journals/editor/import_from_markdown', { markdown: `# ${lone}` }), ['body', 'markdown']],
      [c.edit(journalId, [{ type: 'update_node', nodeId: blockId, params: [{ content: lone }] }]), ['body', 'operations', 0, 'params', 0, 'content']],
      [c.post('/v1/interactives/practice/grade', { problem: { problem_type: 'frq', problem_statement: 'Why?', user_answer: lone } }), ['body', 'problem', 'user_answer']],
    ];
    for (const [pending, loc] of cases) expect422(await pending, loc, /lone UTF-16 surrogate/);
    // Escaped pairs (an emoji) are fine.
    const ok = await c.put('/v1/journals/editor/create', { title: 'smile \ud83d\ude00' });
    expect(ok.status).toBe(200);
    expect(ok.body.title).toBe('smile 😀');
    await unchanged();
  });
});
