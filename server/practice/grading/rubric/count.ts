/**
 * Per-item criteria ("1 point for each example, up to 3"): the answer's distinct items that count.
 * Options the rubric names count once each when the answer says them. Otherwise (or besides, when
 * the options are only examples) each item of the answer counts when it adds words beyond the
 * descriptor's own, repeats no item already counted, gives nothing the rubric refuses, and — for
 * "example of a mammal" — names a kind of the category (category.ts).
 */
import { itemIsKindOf } from './category.ts';
import { ruledOut } from './contrary.ts';
import { type Answer, contentWords, criterionWords, fraction, judge, matchWord, readAnswer, saysRefused, tokenize } from './match.ts';
import type { Concept, PerItem } from './types.ts';
import { forms } from '../text.ts';

/** Words that say nothing on their own ("I don't know", "for example", "it's a big problem"). */
const FILLER = new Set(
  'know sure unsure idea think guess remember maybe perhaps something thing things stuff reason reasons example examples because yes ok okay etc firstly secondly thirdly finally another one two three first second third lastly answer problem problems issue issues big bad good important serious huge major really lot lots very'.split(
    ' ',
  ),
);
const MAX_ITEMS = 200;
const ENUMERATION_ITEM_WORDS = 4;
/** A list of three or more comma-separated parts may have longer items: "Barbarian invasions, civil wars between rival emperors, and inflation". */
const LIST_ITEM_WORDS = 8;
/** ", and the western half was attacked": a clause of its own after a comma is a point of its own. */
const NEXT_CLAUSE = /,\s+(?:and|but|while|whereas)\s+(?=(?:the|a|an|it|its|they|their|this|these|those|he|she|his|her|we|many|most|some)\b)/i;

/** Where a chain of claims continues: "X releases CO2, which traps heat, and this melts ice". */
const CHAIN = /,\s*(?:which|and\s+this|and\s+that|so|causing|leading\s+to|resulting\s+in|meaning)\s+|\s+(?:so|and\s+this|which\s+then)\s+/i;

/**
 * The answer's items: lines, sentences, ";" parts, and the parts of a short enumeration ("solar,
 * wind and hydro"); with `clauses`, also each link of a chain of claims.
 */
export function answerItems(text: string, clauses = false): string[] {
  const out: string[] = [];
  const sentences = text
    .split(/\n+|(?<=[.!?])\s+|;\s*/)
    .flatMap((s) => s.split(/,?\s+(?:also|as well as|another(?:\s+\w+)?\s+is)\s+/i))
    .flatMap((s) => s.split(NEXT_CLAUSE))
    .flatMap((s) => (clauses ? s.split(CHAIN) : [s]))
    .map((s) => s.replace(/^\s*(?:[-*•·]|\d+[.)]|[a-z][.)])\s+/i, '').trim())
    .filter(Boolean);
  for (const s of sentences) {
    const listed = s.split(/\s*,\s*(?:and\s+|or\s+)?/).map((p) => p.trim()).filter(Boolean);
    if (listed.length >= 3 && listed.every((p) => p.split(/\s+/).length <= LIST_ITEM_WORDS)) {
      out.push(...listed);
      continue;
    }
    const parts = s.split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+/i).map((p) => p.trim()).filter(Boolean);
    const short = (p: string) => p.split(/\s+/).length <= ENUMERATION_ITEM_WORDS;
    if (parts.length > 1 && parts.slice(1).every(short)) {
      // "Two gases are carbon dioxide, methane and ozone": the list starts after its introduction.
      const intro = /^(?:.*\b(?:are|is|include|includes|including|such as|like|e\.g\.|namely)\b|.*:)\s*(.+)$/i.exec(parts[0]!);
      const first = short(parts[0]!) ? parts[0]! : intro?.[1];
      if (first && short(first)) {
        out.push(first, ...parts.slice(1));
        continue;
      }
    }
    out.push(s);
    if (out.length >= MAX_ITEMS) break;
  }
  return out.slice(0, MAX_ITEMS);
}

function sameWord(a: string, b: string): boolean {
  return matchWord(a, b) !== null;
}

export interface Count {
  units: number;
  counted: string[];
  /** Items the category rules out, each with why ("\"coal\" is a fossil fuel, ..."). */
  refused: string[];
}

/** `elsewhere`: the other criteria's wordings — an item that meets one of them is counted there, not here. */
export function countItems(c: PerItem, answer: Answer, judgeOption: (o: Concept, a: Answer) => number, elsewhere: string[] = [], opts: { clauses?: boolean } = {}): Count {
  const counted: string[] = [];
  const refused: string[] = [];
  let units = 0;
  const cap = c.per > 0 ? c.points / c.per : 0;
  const countedWords: string[][] = [];
  for (const o of c.options) {
    // A point is made or not: half of "the heart has four chambers" is not half a mark.
    if (judgeOption(o, answer) === 1) {
      units += 1;
      counted.push(o.text);
      countedWords.push(contentWords(tokenize(o.variants.join(' '))));
    }
  }
  if (!c.open || units >= cap) return { units: Math.min(units, cap), counted, refused };
  const topic = criterionWords(c.topic);
  for (const item of answerItems(answer.text, opts.clauses)) {
    if (units >= cap) break;
    // "it's", "the Earth's": the word without its 's.
    const words = contentWords(tokenize(item).map((w) => w.replace(/'s$/, ''))).filter((w) => !FILLER.has(w));
    // "Because it fell" for "Why did Rome fall?": repeating the question is not an item.
    const fresh = words.filter((w) => !topic.some((t) => sameWord(t, w)) && ![...forms(w)].some((f) => answer.question.has(f)));
    // "455" alone names no point.
    if (!fresh.some((w) => /[a-z]/.test(w))) continue;
    // "The Goths" after the option "invasions by Germanic tribes (Goths, Vandals)" was counted: the same point.
    if (countedWords.some((prev) => fresh.every((w) => prev.some((p) => sameWord(p, w))))) continue;
    const itemAnswer = readAnswer(item);
    if (c.rejects.some((r) => saysRefused(r, itemAnswer))) continue;
    // An item that is one of the named options was counted above.
    if (c.options.some((o) => o.variants.some((v) => fraction(judge(v, itemAnswer)) === 1))) continue;
    if (elsewhere.some((v) => fraction(judge(v, itemAnswer)) === 1)) continue;
    if (c.category && !itemIsKindOf(fresh, c.category)) continue;
    const why = words.length <= ENUMERATION_ITEM_WORDS ? ruledOut(words, c.contraries) : null;
    if (why) {
      refused.push(why);
      continue;
    }
    countedWords.push(fresh);
    counted.push(item.replace(/[.!?;,]+$/, ''));
    units++;
  }
  return { units: Math.min(units, cap), counted, refused };
}
