/** Topic detection: which offline generators (catalogue sub-topics) a free-text set description asks for. */
import type { TopicGenerator } from './item.ts';
import { SCHOOL_GENERATORS } from './school/index.ts';
import { matchSubTopics, onlyEverydayWords } from './school/match.ts';

/** Every mathematics generator: one per catalogue sub-topic (school/catalogue.ts). */
export const MATH_GENERATORS: readonly TopicGenerator[] = SCHOOL_GENERATORS;
const BY_ID = new Map(MATH_GENERATORS.map((g) => [g.id, g]));

export interface MathDetection {
  generators: TopicGenerator[];
  /** Words of the description that no sub-topic and no exercise wording accounts for. */
  leftover: string[];
}

/**
 * The sub-topics a description names, narrowest first (school/match.ts): a set mixes only those,
 * and a description with words no sub-topic accounts for is refused by the caller.
 */
export function detectMath(description: string): MathDetection {
  const m = matchSubTopics(description);
  if (onlyEverydayWords(m, description)) return { generators: [], leftover: [] };
  return { generators: m.ids.map((id) => BY_ID.get(id)!), leftover: m.leftover };
}

export function wantsVocabulary(description: string): boolean {
  // "like terms" is algebra, not a request for terms.
  return /\b(vocabulary|vocab|terms|terminology|definitions?|glossary|words for|kinds of|types of|names of|parts of)\b/i.test(description.replace(/\blike terms\b/gi, ''));
}
