/**
 * Fidelity on real documents: every non-empty markdown file of the installed npm packages
 * (corpus.ts builds the list at test time), imported and exported through the functions the
 * service runs (import task -> Yjs state -> read model -> export), must render with the GFM
 * reference renderer as the original does (fidelity.ts). Every file counts; a slice of them also
 * goes through the real HTTP service (PUT import_from_markdown, GET content) and must come back
 * exactly as the in-process path prints it.
 */
import { describe, expect, it } from 'vitest';
import { Client, serverSuite, type TestServer } from '../helpers/server.ts';
import { markdownCorpus, serviceRoundTrip } from './corpus.ts';
import { firstDifference, roundTripOutcome } from './fidelity.ts';

const files = markdownCorpus();

describe('real documents from node_modules', () => {
  it('has a corpus', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('round-trips at least 99% of them', () => {
    const failing: string[] = [];
    const threw: string[] = [];
    const notIdempotent: string[] = [];
    for (const file of files) {
      try {
        const outcome = roundTripOutcome(file.markdown, serviceRoundTrip);
        if (!outcome.ok) failing.push(`${file.name}\n  ${firstDifference(outcome.expected, outcome.actual)}`);
        // Importing the export and exporting again changes nothing.
        const again = serviceRoundTrip(outcome.exported);
        if (again !== outcome.exported) notIdempotent.push(`${file.name}\n  ${firstDifference(outcome.exported, again)}`);
      } catch (error) {
        threw.push(`${file.name}: ${String(error)}`);
      }
    }
    const passed = files.length - failing.length - threw.length;
    const bytes = files.reduce((n, f) => n + f.markdown.length, 0);
    console.log(
      `Corpus round trip: ${passed}/${files.length} files pass (${((100 * passed) / files.length).toFixed(2)}%, ` +
        `${(bytes / 1e6).toFixed(2)} MB)` +
        (failing.length ? `\nfirst failures:\n${failing.slice(0, 8).join('\n')}` : ''),
    );
    expect(threw).toEqual([]);
    expect(notIdempotent).toEqual([]);
    expect(passed / files.length).toBeGreaterThanOrEqual(0.99);
  }, 600_000);
});

describe('the same documents through HTTP', () => {
  let server: TestServer;
  let c: Client;
  serverSuite({}, (s, client) => {
    [server, c] = [s, client];
  });

  // Every 20th file, and the largest: enough to cover the worker path and the plain one.
  const slice = files.filter((_, i) => i % 20 === 0);
  const largest = files.reduce((a, b) => (b.markdown.length > a.markdown.length ? b : a), files[0]!);
  if (!slice.includes(largest)) slice.push(largest);

  it(`answers GET content as the in-process path prints it (${slice.length} files)`, async () => {
    for (const file of slice) {
      const id = await c.importMarkdown(file.markdown, file.name.slice(0, 300));
      expect(await c.content(id), file.name).toBe(serviceRoundTrip(file.markdown));
    }
  }, 300_000);
});
