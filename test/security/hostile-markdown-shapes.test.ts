/**
 * Markdown shapes whose cost grows faster than their text, or that make one block too large to
 * handle at once (issue 26): wide tables, many footnotes, wide lists, edits that build too much,
 * and links that expand (reference definitions). Each is refused with a 422 naming its limit, on
 * import and in edits, with stored data untouched and /healthz answering throughout; just under
 * each limit the same shape is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LINK_EXPANSION_ALLOWANCE,
  MAX_EDIT_ELEMENTS,
  MAX_EDIT_TEXT_RUNS,
  MAX_FOOTNOTE_CALLS,
  MAX_FOOTNOTE_DEFINITIONS,
  MAX_LIST_ITEMS,
  MAX_TABLE_CELLS,
  MAX_TABLE_COLUMNS,
} from '../../shared/limits.ts';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { expectResponsive, whileProbingHealth } from './health-probe.ts';

let server: TestServer;
let c: Client;
let journalId: string;
const KEPT = '# Kept\n\nThis text must survive every attack.\n';

beforeAll(async () => {
  server = await startTestServer();
  c = await server.newClient();
  journalId = await c.importMarkdown(KEPT);
});
afterAll(() => server.close());

async function unchanged(): Promise<void> {
  expect(await c.content(journalId)).toBe(KEPT);
}

function expect422(r: { status: number; body: any }, locPrefix: (string | number)[], msg: RegExp): void {
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(422);
  expect(r.body.detail[0].loc.slice(0, locPrefix.length)).toEqual(locPrefix);
  expect(r.body.detail[0].msg).toMatch(msg);
}

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

const fmt = (n: number) => n.toLocaleString('en-US');
const table = (cols: number, rows: number) =>
  ['|' + ' h |'.repeat(cols), '|' + ' - |'.repeat(cols), ...Array.from({ length: rows }, () => '|' + ' c |'.repeat(cols))].join('\n') + '\n';
const footnoteDefinitions = (n: number) => Array.from({ length: n }, (_, i) => `[^${i}]: see [^${(i + 1) % n}] and [^${(i * 7) % n}]`).join('\n\n') + '\n';
const list = (n: number) => Array.from({ length: n }, (_, i) => `- item ${i}`).join('\n') + '\n';
const journalCount = async () => (await c.get('/v1/journals/list?page_size=100')).body.journals.length;

/** Refused on import (nothing stored) and in an edit (the journal unchanged), /healthz answering. */
async function refusedEverywhere(what: string, markdown: string, msg: RegExp): Promise<void> {
  const before = await journalCount();
  const imp = await probed(`import ${what}`, () => c.put('/v1/journals/editor/import_from_markdown', { markdown }));
  expect422(imp.result, ['body', 'markdown'], msg);
  expectResponsive(imp);
  expect(await journalCount()).toBe(before);
  const edit = await probed(`edit ${what}`, () => c.edit(journalId, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: markdown }] }]));
  expect422(edit.result, ['body', 'operations'], msg);
  expectResponsive(edit);
  await unchanged();
}

describe('tables', () => {
  it(`a table of ${MAX_TABLE_COLUMNS} columns is imported; one more column is refused`, async () => {
    expect((await c.put('/v1/journals/editor/import_from_markdown', { markdown: table(MAX_TABLE_COLUMNS, 3) })).status).toBe(200);
    await refusedEverywhere('101 columns', table(MAX_TABLE_COLUMNS + 1, 3), new RegExp(`too many columns: at most ${MAX_TABLE_COLUMNS}`));
  });

  it('a 10,000-column table is refused while /healthz answers', async () => {
    await refusedEverywhere('10,000 columns', table(10_000, 2), /too many columns/);
  });

  it(`a table of more than ${fmt(MAX_TABLE_CELLS)} cells is refused`, async () => {
    await refusedEverywhere('10,010 cells', table(10, MAX_TABLE_CELLS / 10), new RegExp(`too many cells: at most ${fmt(MAX_TABLE_CELLS)}`));
  });

  it('a table row of 100,000 cells in an edit is refused without stalling or growing memory', async () => {
    const rss0 = process.memoryUsage().rss;
    const row = Array.from({ length: 100_000 }, () => 'a');
    const probe = await probed('edit row of 100,000 cells', () => c.edit(journalId, [{ type: 'create_node', nodeType: 'table', params: [{ rows: [row] }] }]));
    expect422(probe.result, ['body', 'operations', 0, 'params', 0, 'rows'], /too many columns/);
    expectResponsive(probe);
    // The audit saw +344 MB; the request body itself is 500 KB.
    expect(process.memoryUsage().rss - rss0).toBeLessThan(150 * 1024 * 1024);
    await unchanged();
  });

  it('rows payloads follow the same limits', async () => {
    const ok = await c.edit(journalId, [{ type: 'create_node', nodeType: 'table', params: [{ rows: [Array(MAX_TABLE_COLUMNS).fill('h'), Array(MAX_TABLE_COLUMNS).fill('c')] }] }], { dry_run: true });
    expect(ok.status).toBe(200);
    const tooMany = Array.from({ length: MAX_TABLE_CELLS / 10 + 1 }, () => Array(10).fill('c'));
    expect422(await c.edit(journalId, [{ type: 'create_node', nodeType: 'table', params: [{ rows: tooMany }] }]), ['body', 'operations', 0, 'params', 0, 'rows'], /too many cells/);
    await unchanged();
  });
});

describe('footnotes and lists', () => {
  it(`a web of ${fmt(MAX_FOOTNOTE_DEFINITIONS)} footnotes is imported; more definitions are refused`, async () => {
    expect((await c.put('/v1/journals/editor/import_from_markdown', { markdown: footnoteDefinitions(MAX_FOOTNOTE_DEFINITIONS) })).status).toBe(200);
    await refusedEverywhere('footnote web', footnoteDefinitions(MAX_FOOTNOTE_DEFINITIONS + 1), new RegExp(`too many footnote definitions: at most ${fmt(MAX_FOOTNOTE_DEFINITIONS)}`));
  });

  it(`more than ${fmt(MAX_FOOTNOTE_CALLS)} footnote calls are refused`, async () => {
    await refusedEverywhere('footnote calls', 'See [^1] '.repeat(MAX_FOOTNOTE_CALLS + 1) + '\n\n[^1]: a note\n', /too many footnote calls/);
  });

  it(`a list of ${fmt(MAX_LIST_ITEMS)} items is imported; a wider one is refused`, async () => {
    expect((await c.put('/v1/journals/editor/import_from_markdown', { markdown: list(MAX_LIST_ITEMS) })).status).toBe(200);
    await refusedEverywhere('wide list', list(MAX_LIST_ITEMS + 1), new RegExp(`too many items: at most ${fmt(MAX_LIST_ITEMS)}`));
    const items = Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, i) => `item ${i}`);
    expect422(await c.edit(journalId, [{ type: 'create_node', nodeType: 'bullet_list', params: [{ items }] }]), ['body', 'operations', 0, 'params', 0, 'items'], /too many items/);
    await unchanged();
  });
});

describe('what one edit may build', () => {
  it(`an edit of more than ${fmt(MAX_EDIT_ELEMENTS)} blocks is refused, dry run or not; one under the limit applies`, async () => {
    const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`).join('\n\n');
    for (const dry_run of [true, false]) {
      const probe = await probed(`edit of ${MAX_EDIT_ELEMENTS + 1} paragraphs, dry_run ${dry_run}`, () =>
        c.edit(journalId, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: paragraphs(MAX_EDIT_ELEMENTS + 1) }] }], { dry_run }),
      );
      expect422(probe.result, ['body', 'operations', 0], new RegExp(`at most ${fmt(MAX_EDIT_ELEMENTS)} elements`));
      expectResponsive(probe);
    }
    await unchanged();
    const id = await c.importMarkdown('# Many\n');
    const probe = await probed(`edit of ${MAX_EDIT_ELEMENTS - 1} paragraphs`, () => c.edit(id, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: paragraphs(MAX_EDIT_ELEMENTS - 1) }] }]));
    expect(probe.result.status).toBe(200);
    expectResponsive(probe);
  });

  it(`operations count together: ${MAX_EDIT_TEXT_RUNS + 1} text runs over many operations are refused`, async () => {
    const per = 100; // runs per paragraph: 50 emphasised, 50 plain
    const ops = Array.from({ length: Math.ceil((MAX_EDIT_TEXT_RUNS + 1) / per) }, (_, i) => ({
      type: 'create_node',
      nodeType: 'paragraph',
      params: [{ content: `${i}` + '*a* b'.repeat(per / 2) }],
    }));
    const probe = await probed('edit of 25,100 runs over 251 operations', () => c.edit(journalId, ops));
    expect422(probe.result, ['body', 'operations'], new RegExp(`${fmt(MAX_EDIT_TEXT_RUNS)} text runs per edit`));
    expectResponsive(probe);
    await unchanged();
  });
});

describe('links do not amplify what is stored', () => {
  const target = 'https://example.com/' + 'x'.repeat(4000);
  /** A 24 KiB text of 4 KB reference definitions used by short links, as in the audit. */
  const references = (uses: number) => `[r]: ${target} "${'t'.repeat(4000)}"\n\n` + '[a][r] '.repeat(uses) + '\n';

  it('reference links expanding past the allowance are refused on import and in edits', async () => {
    await refusedEverywhere('references x3000', references(3_000), /links expand too much/);
  });

  it('images inside a long link, and emphasis runs inside it, count each time they store the link', async () => {
    await refusedEverywhere('images in a link', `[${'![i](x)'.repeat(200)}](${target})\n`, /links expand too much/);
    await refusedEverywhere('runs in a link', `[${'*a* b'.repeat(200)}](${target})\n`, /links expand too much/);
  });

  it('ordinary use of references is accepted, and the stored model stays within a small multiple of the text', async () => {
    const markdown = `[r]: ${target}\n\n` + '[a][r] '.repeat(15) + '\n';
    const id = await c.importMarkdown(markdown);
    const model = await c.get(`/v1/journals/editor/model/${id}`);
    expect(model.status).toBe(200);
    expect(JSON.stringify(model.body).length).toBeLessThan(4 * (markdown.length + LINK_EXPANSION_ALLOWANCE));
  });
});
