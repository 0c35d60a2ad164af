/**
 * Level descriptors ("3 marks: ... / 2 marks: ... / 1 mark: ..."): the level an answer reaches,
 * and why not the one above. A level is met by its descriptor, by enough of the indicative points
 * (the rubric's own, or the top level's "A AND B AND C"), by the number of distinct items it
 * counts, or, for a worked calculation, by what the CAS reads off the answer; an example or links
 * between the points are read from the answer's reasoning when the level asks for them.
 */
import { forms } from '../text.ts';
import { calcNeeds, describeFacts, meets, type CalcFacts } from './calc.ts';
import { HEADS, onlyCounts } from './category.ts';
import { EXAMPLE_WORDS, givesExample, judgeConcept, sameWord, type Outcome } from './concept.ts';
import { NO_CONTRARIES } from './contrary.ts';
import { countItems } from './count.ts';
import { type Answer, criterionWords, isContradicted, judgeWords, LEVEL_QUALITY_AND_EXAMPLES, tokenize } from './match.ts';
import { fmt } from './parse.ts';
import type { Concept, Levels, PerItem } from './types.ts';

/** "with few or no specific examples" asks for none. */
const NONE_BEFORE = new Set(['no', 'few', 'without', 'little', 'limited', 'lacking', 'lacks', 'any']);
function asksForExample(text: string): boolean {
  const t = tokenize(text);
  return t.some((w, i) => EXAMPLE_WORDS.has(w) && !t.slice(Math.max(0, i - 4), i).some((x) => NONE_BEFORE.has(x)));
}
const NONE_ASKED = /\b(?:with\s+)?(?:(?:few|little|very\s+few)\s+or\s+no|no|few|little|limited|without)\s+(?:specific\s+|relevant\s+|named\s+|supporting\s+)?(?:examples?|instances?|evidence|details?)\b/gi;
/** "and links between them", "makes connections": a level that asks for points linked to each other... */
const LINK_WORDS = String.raw`\b(?:links?|linked|linking|connections?|connected|connecting|interrelat\w*)\b(?:\s+(?:between|among)\s+(?:them|these|the\s+\w+|\w+))?`;
const LINKS = new RegExp(LINK_WORDS, 'i');
const ALL_LINKS = new RegExp(LINK_WORDS, 'gi');
/** ...is met by reasoning that joins them. */
const CONNECTIVE = /\b(?:so|because|therefore|thus|hence|which\s+(?:means|leads|causes|results)|this\s+(?:means|leads|causes|results)|causing|leading\s+to|as\s+a\s+result|in\s+turn|results?\s+in|due\s+to)\b/i;

interface LevelCheck {
  met: boolean;
  partly: boolean;
  full: boolean;
  why: string;
}

/** A level is met when its descriptor is (70% of its words) and so is what sets it above the level below. */
function checkLevel(l: Levels['levels'][number], lower: Levels['levels'][number] | undefined, guidance: Concept[], answer: Answer, fromReference: boolean): LevelCheck {
  const quality = LEVEL_QUALITY_AND_EXAMPLES;
  const wantsExample = asksForExample(l.text) && !(lower && asksForExample(lower.text));
  const hasExample = givesExample(answer.text);
  const wantsLinks = LINKS.test(l.text) && !(lower && LINKS.test(lower.text));
  // The links are read from the answer's reasoning, not as words it must repeat; "with few or no
  // examples" says what the level lacks, not a denial the answer must make.
  const plain = (t: string) => {
    const unasked = t.replace(NONE_ASKED, ' ');
    return wantsLinks ? unasked.replace(ALL_LINKS, ' ') : unasked;
  };
  l = { ...l, text: plain(l.text), variants: l.variants.map(plain) };
  const hasLinks = CONNECTIVE.test(answer.text);
  // What the question already says ("of global warming") does not stop a descriptor from only counting.
  const levelWords = criterionWords(l.text, quality).filter((w) => ![...forms(w)].some((f) => answer.question.has(f)) || HEADS.has(w));
  if (l.counted && !guidance.length && onlyCounts(levelWords)) {
    // "2 marks: both reasons / 1 mark: one reason": the number of distinct items decides. Each
    // clause of a chain ("X releases CO2, which traps heat") can be one: a cause and its effect.
    const asItems: PerItem = { kind: 'each', text: l.text, points: l.needs, per: 1, options: [], open: true, category: null, contraries: NO_CONTRARIES, topic: l.text, rejects: l.rejects };
    const { units } = countItems(asItems, answer, () => 0, [], { clauses: true });
    const enough = units >= l.needs;
    const why = !enough ? `gives ${units} distinct item(s); it needs ${l.needs}` : wantsExample && !hasExample ? 'no example given' : '';
    return { met: enough && (!wantsExample || hasExample), partly: units > 0, full: enough, why };
  }
  const j = judgeConcept(l.variants, l.rejects, answer, fromReference, quality);
  if (j.rejected) return { met: false, partly: false, full: false, why: `gives "${j.rejected}", which the rubric does not accept` };
  // With indicative points, a level is also met by them, each judged on its own: a contrary word
  // somewhere in a long descriptor does not outweigh them.
  if (isContradicted(j.best) && !guidance.length) return { met: false, partly: false, full: false, why: 'the answer says the opposite' };
  let why = j.best.missing.length ? `missing: ${j.best.missing.slice(0, 6).join(', ')}` : '';
  let extraMet = true;
  if (lower && j.fraction === 1) {
    const lowerWords = lower.variants.flatMap((v) => criterionWords(v, quality));
    const extra = criterionWords(l.variants[0] ?? l.text, quality).filter((w) => !lowerWords.some((o) => sameWord(o, w)));
    if (extra.length) {
      const e = judgeWords(extra, false, answer);
      extraMet = e.coverage >= 0.5;
      if (!extraMet) why = `missing: ${e.missing.slice(0, 6).join(', ')}`;
    }
  }
  if (wantsExample && !hasExample) why = why ? `${why}; no example given` : 'no example given';
  if (wantsLinks && !hasLinks) why = why ? `${why}; its points are not linked` : 'its points are not linked (no "so", "because", "which means"...)';
  const met = j.fraction === 1 && !isContradicted(j.best) && extraMet && (!wantsExample || hasExample) && (!wantsLinks || hasLinks);
  if (met || !guidance.length) return { met, partly: j.fraction > 0, full: j.best.coverage === 1, why };
  // Met instead by enough of the indicative points.
  const made = guidance.filter((g) => judgeConcept(g.variants, g.rejects, answer, fromReference).fraction === 1).length;
  if (made >= l.needs) return { met: true, partly: true, full: made > l.needs || j.best.coverage === 1, why: '' };
  return { met: false, partly: made > 0 || j.fraction > 0, full: false, why: `makes ${made} of the indicative points; it needs ${l.needs}` };
}

/**
 * "3 marks: describes A AND B AND C / 2 marks: two of these processes / 1 mark: one process":
 * lower levels that count the top level's points are met by that many of them, which serve as
 * the levels' indicative points when the rubric lists none.
 */
function topLevelPoints(c: Levels): Concept[] {
  const top = c.levels[0];
  if (!top || c.levels.length < 2) return [];
  const parts = top.text.split(/\s+AND\s+/).map((p) => p.trim()).filter((p) => criterionWords(p).length > 0);
  const counts = c.levels.slice(1).some((l) => l.counted);
  if (parts.length < 2 || !counts) return [];
  return parts.map((p) => ({ kind: 'concept', text: p, points: 1, variants: [p], rejects: top.rejects }));
}

export function scoreLevels(c: Levels, answer: Answer, fromReference: boolean, facts: CalcFacts | null): Outcome {
  const guidance = c.guidance.length ? c.guidance : topLevelPoints(c);
  const fromTop = !c.guidance.length && guidance.length > 0;
  const checks = c.levels.map((l, i): LevelCheck => {
    // A worked calculation's levels ("correct answer with steps shown but missing units") are read off the answer by the CAS.
    const needs = facts ? calcNeeds(l.text) : null;
    if (facts && needs) {
      const met = meets(facts, needs);
      return { met, partly: met, full: met, why: met ? '' : `the answer has ${describeFacts(facts)}` };
    }
    if (i === 0 && fromTop) {
      // "A AND B AND C": the top level is all of its points.
      const made = guidance.filter((g) => judgeConcept(g.variants, g.rejects, answer, fromReference).fraction === 1).length;
      return { met: made === guidance.length, partly: made > 0, full: made === guidance.length, why: `makes ${made} of its ${guidance.length} points` };
    }
    return checkLevel(l, c.levels[i + 1], guidance, answer, fromReference);
  });
  const reached = checks.findIndex((k) => k.met);
  const top = fmt(c.points);
  if (reached < 0) {
    const lowest = c.levels[c.levels.length - 1]!;
    const lowCheck = checks[checks.length - 1]!;
    const got = lowCheck.partly && lowest.min < lowest.points ? lowest.min : 0;
    const state = lowCheck.partly ? 'partly meets' : 'does not meet';
    const line = `${got > 0 ? 'Partly met' : 'Missed'}: levels — no level reached (${fmt(got)}/${top}); the answer ${state} the lowest, "${lowest.label}: ${lowest.text}"${lowCheck.why ? ` (${lowCheck.why})` : ''}.`;
    return { got, line, met: got > 0 ? [`${lowest.label}: ${lowest.text} (partly)`] : [], missed: [`${lowest.label}: ${lowest.text}`] };
  }
  const l = c.levels[reached]!;
  const got = l.min < l.points && !checks[reached]!.full ? l.min : l.points;
  const above = c.levels[reached - 1];
  const status = reached === 0 ? 'Met' : 'Partly met';
  const why = above ? `; not "${above.label}": ${checks[reached - 1]!.why || 'its descriptor is not met'}` : '';
  const range = l.min < l.points ? (got === l.points ? ' (top of its range: every word of it is there)' : ' (bottom of its range: not every word of it is there)') : '';
  return {
    got,
    line: `${status}: level reached "${l.label}: ${l.text}"${range} (${fmt(got)}/${top})${why}.`,
    met: [`${l.label}: ${l.text}`],
    missed: above ? [`${above.label}: ${above.text}`] : [],
  };
}
