/**
 * Round trip of the CommonMark 0.31.2 spec examples and the GFM extension examples: import each
 * example, export it, render the original and the export with the GFM reference renderer
 * (micromark + GFM) and compare the HTML (fidelity.ts). The examples that do not round-trip are a
 * documented decision (docs/markdown-fidelity.md); the list here must match it, so both a
 * regression and an unnoticed improvement fail the suite.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdownToDoc, docToMarkdown } from '../../shared/markdown/index.ts';
import { firstDifference, roundTripOutcome } from './fidelity.ts';

interface Example {
  markdown: string;
  section: string;
  number: number;
}
const require = createRequire(import.meta.url);
const commonmarkExamples = (require('commonmark-spec') as { tests: Example[] }).tests;
const gfmExamples = (JSON.parse(readFileSync(new URL('./fixtures/gfm-examples.json', import.meta.url), 'utf8')) as { examples: Example[] }).examples;
const examples = [
  ...commonmarkExamples.map((e) => ({ ...e, id: `cm-${e.number}` })),
  ...gfmExamples.map((e) => ({ ...e, id: `gfm-${e.number}` })),
];

/** Documented in docs/markdown-fidelity.md. */
const KNOWN_FAILURES = ['cm-417'];

describe('CommonMark 0.31.2 + GFM spec examples', () => {
  it('has the 652 CommonMark examples and the GFM ones', () => {
    expect(commonmarkExamples.length).toBe(652);
    expect(gfmExamples.length).toBeGreaterThanOrEqual(30);
  });

  it('round-trip at least 99%, idempotently, without throwing', () => {
    const failing: string[] = [];
    const details: string[] = [];
    const notIdempotent: string[] = [];
    const threw: string[] = [];
    for (const example of examples) {
      try {
        const outcome = roundTripOutcome(example.markdown);
        if (outcome.ok && docToMarkdown(markdownToDoc(outcome.exported)) !== outcome.exported) notIdempotent.push(example.id);
        if (!outcome.ok) {
          failing.push(example.id);
          details.push(`${example.id} (${example.section}) ${JSON.stringify(example.markdown)}\n  -> ${JSON.stringify(outcome.exported)}\n  ${firstDifference(outcome.expected, outcome.actual)}`);
        }
      } catch (error) {
        threw.push(`${example.id}: ${String(error)}`);
      }
    }
    const passed = examples.length - failing.length - threw.length;
    console.log(
      `Spec round trip: ${passed}/${examples.length} examples pass (${((100 * passed) / examples.length).toFixed(2)}%; ` +
        `CommonMark ${commonmarkExamples.length}, GFM ${gfmExamples.length}); failing: ${failing.join(', ') || 'none'}` +
        (details.length ? `\nfirst failures:\n${details.slice(0, 8).join('\n')}` : ''),
    );
    expect(threw).toEqual([]);
    expect(notIdempotent).toEqual([]);
    expect(passed / examples.length).toBeGreaterThanOrEqual(0.99);
    expect(failing).toEqual(KNOWN_FAILURES);
  }, 120_000);
});
