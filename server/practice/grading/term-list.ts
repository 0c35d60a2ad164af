/**
 * "Every term of a list" (tuned on H): a short-answer reference that lists several terms with
 * commas and "and" ("foil, épée and sabre"; "intake, compression, power, exhaust") asks for all of
 * them. Each is graded as a term against the answer's items (commas, "and", "&", semicolons,
 * arrows), in any order unless the question asks for an order ("in order"). Accepted only when every
 * term is given and nothing else: sure when every term was matched surely; refused surely only when
 * a term is missing (an item in a term's place may be another name of it: `low`).
 * A reference with "or" is alternatives ("reference lists"), not this.
 */
import type { GradeResult } from '../types.ts';
import { referenceVerdict } from './verdict.ts';
import { gradeShortAnswer } from './short-answer.ts';

const SPLIT = /\s*(?:,|;|\band\b|&|→|->|\bthen\b)\s*/i;
const ORDER = /\bin (?:the right |the correct |that |this )?order\b|\border(?:ed)? (?:from|by)\b|\bsequence\b/i;

function itemsOf(text: string): string[] {
  return text
    .split(SPLIT)
    .map((s) => s.replace(/^\s*(?:\d+[.)]|[-•*])\s*/, '').replace(/[.!]+$/, '').trim())
    .filter(Boolean);
}

/** The terms of a reference written as a list of three or more (commas, maybe a last "and"), or null. */
export function listTerms(reference: string): string[] | null {
  const t = reference.trim();
  if (!t.includes(',') || /\bor\b|[()]/i.test(t)) return null;
  const items = itemsOf(t);
  if (items.length < 3 || items.some((i) => i.split(/\s+/).length > 3 || /\d/.test(i))) return null;
  return items;
}

export function gradeTermList(userAnswer: string, reference: string, statement: string): GradeResult | null {
  const terms = listTerms(reference);
  if (!terms) return null;
  const items = itemsOf(userAnswer);
  const ordered = ORDER.test(statement);
  const grade = (ok: boolean, sure: boolean, why: string): GradeResult => referenceVerdict(reference, ok, sure, why);
  const usedItems = new Set<number>();
  const matchedAt: number[] = [];
  let allSure = true;
  const leftTerms: string[] = [];
  for (const term of terms) {
    let found = -1;
    for (let i = 0; i < items.length && found < 0; i++) {
      if (usedItems.has(i)) continue;
      const g = gradeShortAnswer(items[i]!, term, statement, { among: true });
      if (g.score === g.max_score) {
        found = i;
        if (g.confidence === 'low') allSure = false;
      }
    }
    if (found >= 0) {
      usedItems.add(found);
      matchedAt.push(found);
    } else leftTerms.push(term);
  }
  const leftItems = items.filter((_, i) => !usedItems.has(i));
  if (leftTerms.length === 0 && leftItems.length === 0) {
    const inOrder = matchedAt.every((at, k) => k === 0 || at > matchedAt[k - 1]!);
    if (ordered && !inOrder) return grade(false, allSure, 'The answer gives every term, but not in the order the question asks for.');
    return grade(true, allSure, `Correct: the answer gives every term (${terms.join(', ')}).`);
  }
  if (leftTerms.length === 0) return grade(false, false, `The answer gives every term and also ${leftItems.join(', ')}.`);
  // Fewer items than terms, each of them a term: a term is missing, surely. An item in a term's place
  // may be another name of it ("induction" for "intake"): `low`, whatever it is as a lone term.
  const missing = items.length < terms.length && leftItems.length === 0;
  return grade(false, missing, `The answer does not give ${leftTerms.join(', ')}.`);
}
