/**
 * The fidelity yardstick of the markdown tests: import then export must render, with the GFM
 * reference renderer (micromark + micromark-extension-gfm, raw HTML allowed), to the same HTML as
 * the original, except for the nesting order of marks on the same text (`**[a](u)**` and
 * `[**a**](u)` are one document in ProseMirror).
 */
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { docToMarkdown, markdownToDoc } from '../../shared/markdown/index.ts';

export const renderGfm = (markdown: string): string =>
  micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true, allowDangerousProtocol: true });

/**
 * micromark copies the source's line endings into its HTML (CRLF files render with CRLF) and ends
 * it with a newline only when the source ends with one: export writes LF and a final newline,
 * which says nothing about the document. Only those two are set aside.
 */
const sameLineEndings = (html: string): string => html.replace(/\r\n?/g, '\n').replace(/\n$/, '');

const INLINE_TAG = /^<\/?(em|strong|del|a)(?=[\s>])/;

/** HTML with the nesting order of inline marks made canonical: each run of content lists its marks sorted. */
export function normalizeMarkOrder(html: string): string {
  const out: string[] = [];
  const stack: { tag: string; name: string; used: boolean }[] = [];
  for (const tok of html.match(/<[^>]*>|[^<]+/g) ?? []) {
    const m = INLINE_TAG.exec(tok);
    if (m && !tok.startsWith('</')) {
      stack.push({ tag: tok, name: m[1]!, used: false });
      continue;
    }
    const key = stack.map((s) => s.tag).sort().join('');
    if (m) {
      const at = stack.map((s) => s.name).lastIndexOf(m[1]!);
      if (at >= 0) {
        if (!stack[at]!.used) out.push(`${key}\u0000(empty ${stack[at]!.tag})`);
        stack.splice(at, 1);
      }
      continue;
    }
    for (const s of stack) s.used = true;
    const last = out[out.length - 1];
    if (!tok.startsWith('<') && last !== undefined && last.startsWith(key + '\u0000') && !last.slice(key.length + 1).startsWith('<')) {
      out[out.length - 1] = last + tok;
    } else {
      out.push(`${key}\u0000${tok}`);
    }
  }
  return out.join('\n');
}

export interface Outcome {
  ok: boolean;
  exported: string;
  expected: string;
  actual: string;
}

/** Import, export, render both with the reference renderer and compare. */
export function roundTripOutcome(markdown: string, convert: (md: string) => string = (md) => docToMarkdown(markdownToDoc(md))): Outcome {
  const exported = convert(markdown);
  const expected = sameLineEndings(renderGfm(markdown));
  const actual = sameLineEndings(renderGfm(exported));
  const ok = expected === actual || normalizeMarkOrder(expected) === normalizeMarkOrder(actual);
  return { ok, exported, expected, actual };
}

/** The first line where two texts differ, with a little context, for failure reports. */
export function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 60);
  return `expected …${JSON.stringify(a.slice(from, i + 80))}\n      got …${JSON.stringify(b.slice(from, i + 80))}`;
}
