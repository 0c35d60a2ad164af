/**
 * Reads whose cost grew faster than the journal, or held the event loop for as long as the
 * journal is large (issue 26): an export quadratic in the marks of one text, and `GET content`
 * and `GET model` of a journal of many MB read and printed on the main thread. Export is linear;
 * a journal whose stored state is at least LARGE_READ_BYTES is read in a worker thread from its
 * stored state, without being loaded, and prints exactly what the main thread prints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docToMarkdown, markdownToDoc } from '../../shared/markdown/index.ts';
import { expectCostWithin } from '../helpers/cost.ts';
import { Client, startTestServer, tempDataDir, type TestServer } from '../helpers/server.ts';
import { expectResponsive, whileProbingHealth } from './health-probe.ts';

let server: TestServer;
let c: Client;
const dataDir = tempDataDir();

beforeAll(async () => {
  server = await startTestServer({ dataDir });
  c = await server.newClient();
});
afterAll(() => server.close());

/** whileProbingHealth, printing the figures with HOSTILE_FIGURES=1 (the closing note of issue 26). */
async function probed<T>(what: string, attack: () => Promise<T>) {
  const rss0 = process.memoryUsage().rss;
  const probe = await whileProbingHealth(server.url, attack);
  if (process.env.HOSTILE_FIGURES) {
    const rss = ((process.memoryUsage().rss - rss0) / 2 ** 20).toFixed(0);
    console.log(`FIGURE ${what}: status ${(probe.result as { status: number }).status}, blocked ${probe.blockedMs.toFixed(0)} ms, wall ${probe.worstMs.toFixed(0)} ms, RSS +${rss} MB`);
  }
  return probe;
}

/** One paragraph of `runs` emphasis runs: `x*a* x*a* …`. */
const emphasisRuns = (runs: number) => 'x*a* '.repeat(runs).trimEnd() + '\n';

describe('export is linear in the marks of a text', () => {
  it('printing a paragraph of 56,000 emphasis runs costs about twenty times one of 2,800', async () => {
    const big = markdownToDoc(emphasisRuns(56_000));
    const small = markdownToDoc(emphasisRuns(2_800));
    expect(docToMarkdown(big)).toBe(emphasisRuns(56_000));
    // Linear: 20x the work; quadratic: 400x (before: 28,000 runs already cost 54x the small one).
    await expectCostWithin(() => docToMarkdown(big), () => docToMarkdown(small), 60, 'printing 56,000 runs');
  });

  it('GET content of a journal holding that paragraph, after an edit, answers while /healthz does', async () => {
    const markdown = emphasisRuns(28_000);
    const id = await c.importMarkdown(markdown);
    // An edit elsewhere makes the stored export stale: the next read prints the journal again.
    const edit = await c.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'appended' }] }]);
    expect(edit.status).toBe(200);
    const probe = await probed('GET content, 28,000 emphasis runs', () => c.get(`/v1/journals/content/${id}`));
    expect(probe.result.status).toBe(200);
    expect(probe.result.body.content).toBe(markdown + '\nappended\n');
    expectResponsive(probe);
  });
});

describe('large journals are read off the event loop', () => {
  // About 600 KB of ordinary markdown: several MB of Yjs state.
  const markdown = Array.from({ length: 6000 }, (_, i) => `Paragraph ${i} with *emphasis*, **strong**, a [link](https://example.com/${i}) and \`code\`.`).join('\n\n') + '\n';
  let id: string;
  let expected: string;

  beforeAll(async () => {
    id = await c.importMarkdown(markdown);
    const r = await c.edit(id, [{ type: 'create_node', nodeType: 'heading', params: [2, 'The end'] }]);
    expect(r.status).toBe(200);
    expected = docToMarkdown(markdownToDoc(markdown)) + '\n## The end\n';
  });

  it('GET content prints the journal in a worker, exactly as the main thread would, while /healthz answers', async () => {
    const probe = await probed('GET content, 6,000 paragraphs', () => c.get(`/v1/journals/content/${id}`));
    expect(probe.result.status).toBe(200);
    expect(probe.result.body.content).toBe(expected);
    expectResponsive(probe);
  });

  it('GET model is read in a worker too, and is the same model as a small journal answers', async () => {
    const probe = await probed('GET model, 6,000 paragraphs', () => c.get(`/v1/journals/editor/model/${id}`));
    expect(probe.result.status).toBe(200);
    expectResponsive(probe);
    const model = probe.result.body.model;
    expect(model.type).toBe('doc');
    expect(model.content).toHaveLength(6001);
    expect(model.content[6000]).toMatchObject({ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'The end' }] });
    expect(model.content[0].content[1]).toEqual({ type: 'text', marks: [{ type: 'em' }], text: 'emphasis' });
    expect(probe.result.body).toMatchObject({ success: true, message: null, revision: 2 });
  });

  it('a large journal that is not loaded is read without loading it', async () => {
    await server.close();
    server = await startTestServer({ dataDir });
    c = new Client(server.url, c.key, c.orgId);
    expect(server.svc.ctx.registry.get(id)).toBeUndefined();
    const probe = await probed('GET model, not loaded', () => c.get(`/v1/journals/editor/model/${id}`));
    expect(probe.result.status).toBe(200);
    expect(probe.result.body.model.content).toHaveLength(6001);
    expectResponsive(probe);
    expect(server.svc.ctx.registry.get(id)).toBeUndefined();
  });
});

describe('a diff of two versions far apart', () => {
  it('20,000 blocks apart: computed off the event loop and answered in pages of bounded size', async () => {
    const id = await c.importMarkdown('# Start\n');
    const v1 = await c.post(`/v1/journals/versions/${id}`, { name: 'start' });
    expect(v1.status).toBe(200);
    for (let k = 0; k < 10; k++) {
      const content = Array.from({ length: 2000 }, (_, i) => `Paragraph ${k}-${i} with *some* text`).join('\n\n');
      const r = await c.edit(id, [{ type: 'create_node', nodeType: 'markdown', params: [{ content }] }]);
      expect(r.status).toBe(200);
    }
    // Read once first: it waits for what the edits left to do (the log's compaction).
    const content = await c.content(id);
    const path = `/v1/journals/versions/${id}/diff?from=${v1.body.version_id}&to=current`;
    const probe = await probed('GET diff, 20,000 blocks apart', () => c.get(path));
    expect(probe.result.status).toBe(200);
    expectResponsive(probe);
    const first = probe.result.body;
    expect(first.total).toBe(20_000);
    expect(first.diff.added).toHaveLength(1000);
    expect(first.diff.added[0]).toMatchObject({ type: 'paragraph', after: 'Paragraph 0-0 with *some* text\n', changed_by: [{ actor: 'api_key' }] });
    expect(first.next_page_token).toBe(1000);
    expect(JSON.stringify(first).length).toBeLessThan(2 * 1024 * 1024);
    // The next page follows on, and the last one says so.
    const second = await c.get(`${path}&page_token=1000&page_size=500`);
    expect(second.body.diff.added).toHaveLength(500);
    expect(second.body.diff.added[0].after).toBe('Paragraph 0-1000 with *some* text\n');
    expect(second.body.next_page_token).toBe(1500);
    const last = await c.get(`${path}&page_token=19900`);
    expect(last.body.diff.added).toHaveLength(100);
    expect(last.body.next_page_token).toBeUndefined();
    // Reading that version whole (markdown and model) is done off the event loop too.
    const v2 = await c.post(`/v1/journals/versions/${id}`, { name: 'big' });
    const read = await probed('GET version of 20,001 blocks', () => c.get(`/v1/journals/versions/${id}/${v2.body.version_id}`));
    expect(read.result.status).toBe(200);
    expectResponsive(read);
    expect(read.result.body.model.content).toHaveLength(20_001);
    expect(read.result.body.content).toBe(content);
    expect(read.result.body).toMatchObject({ success: true, version_id: v2.body.version_id, name: 'big' });
  }, 120_000);
});
