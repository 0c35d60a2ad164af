/**
 * Property-based tests of markdown conversion on random and adversarial input: import and export
 * never throw (beyond the documented limit error), every result is a valid document, and the
 * service's conversion is bounded in time by a limit linear in the input's size.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Node as PMNode } from 'prosemirror-model';
import { blocksToMarkdown, markdownToDoc, MarkdownLimitError } from '../../shared/markdown/index.ts';
import { MarkdownConverter } from '../../server/journals/markdown-offload.ts';
import { WORKER_ENTRY } from '../../server/app.ts';
import { WorkerPool } from '../../server/workers/pool.ts';

/** Characters that mean something to CommonMark or GFM, plus plain text and line structure. */
const MD_CHARS = ['*', '_', '[', ']', '(', ')', '`', '<', '>', '!', '#', '-', '+', '1', '.', '|', '~', ':', '\\', '&', ';', '"', ' ', ' ', '\n', '\n', '\t', 'a', 'b', 'x', 'é', '😀', '\u0000'];
const markdownish = fc.array(fc.constantFrom(...MD_CHARS), { maxLength: 400 }).map((cs) => cs.join(''));
/** Line-shaped input: list markers, quotes, fences, tables, headings with random inline text. */
const lineish = fc
  .array(
    fc.tuple(
      fc.constantFrom('', '  ', '    ', '> ', '- ', '1. ', '* [ ] ', '# ', '```', '| ', '---', '<div>', '    - '),
      fc.array(fc.constantFrom(...MD_CHARS.filter((c) => c !== '\n')), { maxLength: 40 }).map((cs) => cs.join('')),
    ),
    { maxLength: 40 },
  )
  .map((lines) => lines.map(([a, b]) => a + b).join('\n'));

function blocksOf(doc: PMNode): PMNode[] {
  const out: PMNode[] = [];
  doc.forEach((b) => out.push(b));
  return out;
}

/** Import then export; the limit error is an allowed answer, anything else thrown is a bug. */
function roundTrip(md: string): string | undefined {
  let doc: PMNode;
  try {
    doc = markdownToDoc(md);
  } catch (err) {
    if (err instanceof MarkdownLimitError) return undefined;
    throw err;
  }
  doc.check();
  return blocksToMarkdown(blocksOf(doc));
}

describe('markdown import and export never throw', () => {
  it('on random markdown-ish characters', () => {
    fc.assert(
      fc.property(markdownish, (md) => {
        const out = roundTrip(md);
        if (out !== undefined) roundTrip(out);
      }),
      { numRuns: 400 },
    );
  });

  it('on random line structures (lists, quotes, fences, tables, headings)', () => {
    fc.assert(
      fc.property(lineish, (md) => {
        const out = roundTrip(md);
        if (out !== undefined) roundTrip(out);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the service converts any markdown within a time linear in its size', () => {
  // Small limits keep the suite quick; production defaults are documented in docs/security.md.
  const pool = new WorkerPool(WORKER_ENTRY, { baseMs: 500, perKibMs: 10, workers: 1 });
  const converter = new MarkdownConverter(pool);
  afterAll(() => pool.close());

  const families: Record<string, (n: number) => string> = {
    '*a': (n) => '*a'.repeat(n / 2),
    '_a': (n) => '_a'.repeat(n / 2),
    '[a': (n) => '[a'.repeat(n / 2),
    '`a': (n) => '`a'.repeat(n / 2),
    '<a': (n) => '<a'.repeat(n / 2),
    'nested quotes': (n) => '> '.repeat(n / 2) + 'a',
    'nested lists': (n) => '- '.repeat(n / 2) + 'a',
    'quote lines': (n) => '> a\n'.repeat(n / 4),
    'indented list': (n) => Array.from({ length: n / 12 }, (_, i) => `${' '.repeat((i % 40) * 2)}- item`).join('\n'),
  };

  it.each(Object.keys(families))('repeated %s: answered or refused within the limit for its size', async (family) => {
    for (const size of [4 * 1024, 48 * 1024]) {
      const md = families[family]!(size);
      // The baseline: ordinary markdown of the same size through the same pool, just before.
      const ordinary = 'Some *text* and a [link](https://example.com).\n\n'.repeat(size / 48);
      const b = performance.now();
      // (On a machine loaded enough, even that can meet the limit: its time still counts.)
      await converter.toJournal(ordinary).catch((err) => expect(err).toBeInstanceOf(MarkdownLimitError));
      const baseline = performance.now() - b;
      const t = performance.now();
      let outcome = 'converted';
      try {
        await converter.toJournal(md);
      } catch (err) {
        expect(err).toBeInstanceOf(MarkdownLimitError);
        outcome = 'refused';
      }
      const elapsed = performance.now() - t;
      // Twice the limit plus room for a worker to start again after a kill, counted in ordinary
      // conversions of the same size: a stuck conversion (minutes for some families without the
      // limit) crosses it whatever the machine's load.
      const bound = 2 * pool.timeLimitMs(md.length) + 20 * baseline;
      expect(elapsed, `${family} at ${size} chars was ${outcome} after ${elapsed.toFixed(0)} ms (ordinary markdown: ${baseline.toFixed(0)} ms)`).toBeLessThan(bound);
    }
  });

  it('parseAll refuses a batch past its limits and the pool keeps working afterwards', async () => {
    await expect(converter.parseAll([families['nested quotes']!(48 * 1024)])).rejects.toBeInstanceOf(MarkdownLimitError);
    // A batch too large for the pool's time limit (these limits are tiny on purpose).
    const slow = new MarkdownConverter(new WorkerPool(WORKER_ENTRY, { baseMs: 1, perKibMs: 0, workers: 1 }));
    await expect(slow.parseAll(['plain *text* '.repeat(20_000)])).rejects.toThrow(/time limit/);
    await slow.pool.close();
    const trees = await converter.parseAll(['# fine', 'plain *text* '.repeat(200)]);
    expect((trees.get('# fine') as { content: { type: string }[] }).content[0]!.type).toBe('heading');
  });
});
