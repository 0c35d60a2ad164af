/**
 * Markdown conversion benchmark: one ~1 MB generated document, measured in one run.
 * Reports parse and serialize throughput, serialize/parse ratio, and markdownToDoc against the
 * raw mdast-util-from-markdown parse (with the same GFM extensions) of the same text.
 */
import { markdownToDoc, docToMarkdown } from '../shared/markdown/index.ts';
import { parseMdast } from '../shared/markdown/parse.ts';

/** A ~`bytes`-long document mixing every construct the importer knows. */
export function generateMarkdown(bytes = 1 << 20): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const section = [
      `## Section ${i}: *notes* on \`topic-${i}\``,
      `Paragraph ${i} with **strong**, *emphasis*, ~~struck~~, a [link](https://example.com/${i} "t") ` +
        `and \`code\`, an autolink https://example.org/p/${i} and <span>html</span>.\n` +
        `A second line with an image ![alt ${i}](/img/${i}.png) and a hard break  \nafter it.`,
      `- item one ${i}\n- item *two*\n  - nested [x](/x)\n- [ ] task open\n- [x] task done`,
      `1. first\n2. second with \`code\`\n3. third`,
      `> quoted ${i} with **bold**\n>\n> - and a list`,
      '```ts title="x"\n' + `const x${i} = ${i};\nconsole.log(x${i} * 2);\n` + '```',
      `| name | qty | note |\n| :--- | ---: | :---: |\n| a${i} | ${i} | *ok* |\n| b | 2 | \`x|y\` |`,
      '<div class="note">\nraw html block\n</div>',
      '---',
    ].join('\n\n');
    parts.push(section);
    size += section.length + 2;
  }
  return parts.join('\n\n') + '\n';
}

/** Mean ms per run; a first run over a second counts as the measurement (no repeat). */
function time(fn: () => unknown, minMs = 300): number {
  const first = performance.now();
  fn(); // warm up
  const firstMs = performance.now() - first;
  if (firstMs > 1000) return firstMs;
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    fn();
    runs++;
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return elapsed / runs;
}

export async function benchMarkdown(): Promise<Record<string, number>> {
  const markdown = generateMarkdown();
  const mb = markdown.length / (1 << 20);
  const doc = markdownToDoc(markdown);
  // The raw parser on the whole text (what a plain mdast import does) and on the same pieces
  // markdownToDoc parses (split.ts explains why whole-text parsing is quadratic here).
  const rawMs = time(() => parseMdast(markdown, Infinity));
  const rawPiecesMs = time(() => parseMdast(markdown));
  const parseMs = time(() => markdownToDoc(markdown));
  const serializeMs = time(() => docToMarkdown(doc));
  return {
    markdown_mb: +mb.toFixed(3),
    raw_mdast_parse_ms: +rawMs.toFixed(1),
    raw_mdast_parse_pieces_ms: +rawPiecesMs.toFixed(1),
    parse_ms: +parseMs.toFixed(1),
    serialize_ms: +serializeMs.toFixed(1),
    parse_mb_per_s: +(mb / (parseMs / 1000)).toFixed(2),
    serialize_mb_per_s: +(mb / (serializeMs / 1000)).toFixed(2),
    ratio_serialize_to_parse: +(serializeMs / parseMs).toFixed(3),
    ratio_parse_to_raw_mdast: +(parseMs / rawMs).toFixed(3),
    ratio_parse_to_raw_mdast_pieces: +(parseMs / rawPiecesMs).toFixed(3),
  };
}
