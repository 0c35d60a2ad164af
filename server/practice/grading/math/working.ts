/**
 * Working written before the solutions ("7x = 28 so x = 4", "4x = 8, 2x = 4, x = 2"): the
 * answer is what the working concludes, so a value corrected on the way does not count.
 */
import { splitList } from './read.ts';

/** Words and signs that introduce a conclusion; the last one says where the answer starts. */
const CONCLUSION = /\b(?:so|therefore|hence|thus|the (?:final )?answers? (?:is|are)|the solutions? (?:is|are))\b|∴|⇒|⟹|→|=>|\\(?:therefore|Rightarrow|implies|to)(?![a-zA-Z])/gi;

/** The text after the last conclusion marker, or null when there is none (or nothing after it). */
export function afterConclusion(answer: string): string | null {
  let end = -1;
  for (const m of answer.matchAll(CONCLUSION)) end = m.index + m[0].length;
  if (end < 0) return null;
  const tail = answer.slice(end).replace(/^[\s,:;]+/, '').trim();
  return tail === '' ? null : tail;
}

const ASSIGNMENT = /^[a-zA-Z]\s*=\s*(?:[^=<>a-zA-Z]|sqrt|pi)+$/;
const BARE = /^[^=<>a-zA-Z]+$/;
/** A numeric side of a chain; a logarithm of numbers is one too ("x = log_3 81 = 4", tuned on D). */
const NUMERIC = /^(?:[^=<>a-zA-Z]|sqrt|pi|log|ln)+$/;

/** "x = 8/2 = 4" as "x = 4": the value at the end of a numeric chain. */
function lastValue(part: string): string {
  const sides = part.split('=').map((x) => x.trim());
  if (sides.length < 3 || !/^[a-zA-Z]$/.test(sides[0]) || !sides.slice(1).every((x) => NUMERIC.test(x))) return part;
  return `${sides[0]} = ${sides[sides.length - 1]}`;
}

/**
 * The trailing run of "variable = value" parts of a chain of equations (with bare values after
 * one: "x = 4 or -3"), when equations come before it or a part ends a numeric chain; else null.
 * `text` is normalised, with line breaks as semicolons.
 */
export function trailingSolutions(text: string): string | null {
  const written = splitList(text);
  const parts = written.map(lastValue);
  let start = parts.length;
  while (start > 0 && (ASSIGNMENT.test(parts[start - 1]) || BARE.test(parts[start - 1]))) start--;
  // The run starts at its first "variable = value"; bare values before it are working too.
  while (start < parts.length && !ASSIGNMENT.test(parts[start])) start++;
  if (start === parts.length) return null;
  const working = parts.slice(0, start).some((p) => p.includes('='));
  const chained = parts.some((p, i) => p !== written[i]);
  return working || chained ? parts.slice(start).join(', ') : null;
}
