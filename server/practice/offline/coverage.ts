/**
 * The words of a refused set: what the offline engine covers, why this description is not among
 * it, and the two ways to get the rest (an LLM provider, or questions from the caller's journals).
 * A refused set fails before any problem is made, and its reserved credit is refunded.
 */
import type { MathDetection } from './detect.ts';
import { CATALOGUE } from './school/catalogue.ts';
import { nearestSubTopics } from './school/match.ts';
import type { VocabLookup } from './vocab/topics.ts';

/** Vocabulary descriptions the coverage text gives as examples (each makes a set: test/built). */
export const VOCABULARY_EXAMPLES: readonly string[] = ['cell organelles', 'parts of a flower', 'planets'];

export const OFFLINE_COVERAGE = `The offline engine covers mathematics (${CATALOGUE.length} sub-topics of grades 5 to 9, Algebra 1 and polynomial calculus: number operations, ratios and rates, percent, exponents and roots, expressions, equations and inequalities, linear functions, systems, polynomials, quadratics, geometry, statistics and probability, unit conversions, derivatives and integrals; GET /v1/interactives/practice/topics lists them), vocabulary of noun categories that WordNet lists (for example ${VOCABULARY_EXAMPLES.map((e) => `"${e}"`).join(', ')}), and definition questions from your own journals (search_for_problems).`;

export const HOW_TO_GET_MORE =
  'For other topics, configure an LLM provider (set LLM_BASE_URL to an OpenAI-compatible endpoint, LLM_API_KEY and LLM_MODEL), or set search_for_problems to true to draw questions from your own journals\' sentences of the form "X is Y".';

/** The full refusal: the reason, then the coverage and the ways to get the rest. */
export function refusal(reason: string): string {
  return `${reason} ${OFFLINE_COVERAGE} ${HOW_TO_GET_MORE}`;
}

const quote = (s: string) => `"${s}"`;

function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The nearest catalogue sub-topics, as a sentence (empty when none shares a word with the description). */
function nearest(description: string): string {
  const near = nearestSubTopics(description);
  return near.length ? ` The nearest sub-topics it makes: ${near.map((t) => `${t.name} ("${t.examples[0]}")`).join('; ')}.` : '';
}

export function partialMathReason(description: string, math: MathDetection): string {
  if (math.generators.length === 0) return mathOnlyReason(description);
  return `No offline set for "${description}": the offline engine makes ${list(math.generators.map((g) => g.title.toLowerCase()))} problems, but not about ${list(math.leftover.map(quote))}, so it makes none rather than a set on something else.${nearest(description)}`;
}

/** A mathematical description that no sub-topic covers: never a vocabulary set instead. */
export function mathOnlyReason(description: string): string {
  return `No offline set for "${description}": no sub-topic of the offline mathematics catalogue covers it, and it makes none rather than a set on something else.${nearest(description)}`;
}

export function vocabReason(description: string, vocab: Exclude<VocabLookup, { ok: true }>): string {
  switch (vocab.reason) {
    case 'ambiguous': {
      const meanings = vocab.meanings.slice(0, 4).map((m) => {
        const gloss = m.gloss.length > 70 ? `${m.gloss.slice(0, 67)}...` : m.gloss;
        return m.suggestion ? `"${m.suggestion}" (${gloss})` : `${vocab.phrase} as in "${gloss}"`;
      });
      return `No offline set for "${description}": "${vocab.phrase}" has several unrelated meanings in WordNet and the description does not say which. Ask for one of: ${meanings.join('; ')}.`;
    }
    case 'too-few':
      return `No offline set for "${description}": WordNet lists only ${vocab.found} term(s) that fit "${vocab.root}" here (${list(vocab.terms.slice(0, 5))}), fewer than the 4 a vocabulary set needs, and the offline engine does not invent more.`;
    default:
      return `No offline generator covers "${description}".`;
  }
}

export function noFactsReason(description: string, journals: number): string {
  return `No offline set for "${description}": search_for_problems found ${journals} journal(s) matching the description, but none holds a sentence of the form "X is Y" (or "X means Y") to ask about.`;
}

export function capacityReason(what: string, available: number, needed: number, total: number): string {
  return `No offline set of ${total} problems: ${what} give only ${available} distinct question(s) where this set needs ${needed}. Ask for fewer problems (or select_all ones, which combine statements), so that no question is repeated.`;
}
