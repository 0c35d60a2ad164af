/**
 * Working written before the solutions ("5x = 25 so x = 5", "3x - 6 = 15, 3x = 21, x = 7"): the
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

/**
 * The trailing run of "variable = value" parts of a chain of equations (with bare values after
 * one: "x = 4 or -3"), when equations come before it; else null. `text` is normalised.
 */
export function trailingSolutions(text: string): string | null {
  const parts = splitList(text);
  let start = parts.length;
  while (start > 0 && (ASSIGNMENT.test(parts[start - 1]) || BARE.test(parts[start - 1]))) start--;
  // The run starts at its first "variable = value"; bare values before it are working too.
  while (start < parts.length && !ASSIGNMENT.test(parts[start])) start++;
  if (start === 0 || start === parts.length || !parts.slice(0, start).some((p) => p.includes('='))) return null;
  return parts.slice(start).join(', ');
}
