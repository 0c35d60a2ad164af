/**
 * The offline practice engine: plans a set from a description and produces each problem on
 * demand (`next(i)`), so a job runner can report progress and yield between problems.
 * Every answer is computed (CAS for mathematics, WordNet for vocabulary, the caller's own notes
 * for context questions); a description no generator covers fails with a message that says so.
 */
import type { Difficulty, GenerateRequest, PlanResult, PracticeProblem } from '../types.ts';
import { contextGenerator, extractFacts, type Fact } from './context.ts';
import { detectMath, MATH_GENERATORS, wantsVocabulary } from './detect.ts';
import { assembleChoiceOrFree, assembleSelectAll, distinctDistractors, problemTypeAt, type Item, type TopicGenerator } from './item.ts';
import { makeRng, problemSeed, type Rng } from './rng.ts';
import { findVocabTopic } from './vocab/topics.ts';
import { vocabGenerator } from './vocab/generator.ts';

import { MAX_COUNT, OFFLINE_ENGINE } from './limits.ts';

export { MAX_COUNT, OFFLINE_ENGINE };

const LLM_HINT =
  'To generate problems on other subjects, configure an LLM provider: set LLM_BASE_URL (an OpenAI-compatible endpoint), LLM_API_KEY and LLM_MODEL.';

export const OFFLINE_COVERAGE = `The offline engine covers mathematics (${MATH_GENERATORS.map((g) => g.title.toLowerCase()).join(', ')}), vocabulary sets for noun categories that WordNet lists (for example "vocabulary: cell organelles", "planets", "chemical elements"), and definition questions from your own journals when search_for_problems is on.`;

function contentWords(s: string): Set<string> {
  return new Set(s.toLowerCase().match(/[a-z]{4,}/g) ?? []);
}

/** Facts whose term or definition shares a word with the description, best first. */
function relevantFacts(facts: Fact[], description: string): Fact[] {
  const want = contentWords(description);
  const score = (f: Fact) => [...contentWords(`${f.term} ${f.definition}`)].filter((w) => want.has(w)).length;
  return facts
    .map((f) => ({ f, s: score(f) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s)
    .map((x) => x.f);
}

export function planSet(req: GenerateRequest): PlanResult {
  const description = req.description.trim();
  const total = Math.trunc(req.count);
  if (!(total >= 1 && total <= MAX_COUNT)) return { ok: false, message: `count must be between 1 and ${MAX_COUNT}.` };
  const setSeed = req.seed ?? Math.floor(Math.random() * 2 ** 32);
  const planRng = makeRng(problemSeed(setSeed, -1));

  const generators: TopicGenerator[] = [];
  let setName = '';
  const facts = req.context?.length ? extractFacts(req.context) : [];
  const explicitVocab = wantsVocabulary(description);

  const math = explicitVocab ? [] : detectMath(description);
  if (math.length > 0) {
    generators.push(...math);
    setName = `${math.map((g) => g.title).join(', ')} (${req.difficulty})`;
  } else {
    // With journal context and no explicit vocabulary request, the notes are the subject.
    const vocab = facts.length > 0 && !explicitVocab ? ({ ok: false, reason: 'none' } as const) : findVocabTopic(description, explicitVocab);
    if (vocab.ok) {
      const order = planRng.shuffle(vocab.topic.terms.map((_, i) => i));
      generators.push(vocabGenerator(vocab.topic, order));
      setName = `Vocabulary: ${vocab.topic.root}`;
    } else if (facts.length === 0) {
      const why =
        vocab.reason === 'too-few'
          ? `WordNet lists only ${vocab.found} term(s) under "${vocab.root}", fewer than the ${4} a vocabulary set needs, so the offline engine will not invent more.`
          : `No offline generator covers "${description}".`;
      return { ok: false, message: `${why} ${OFFLINE_COVERAGE} ${LLM_HINT}` };
    }
  }

  const useFacts = generators.length > 0 ? relevantFacts(facts, description) : facts;
  if (useFacts.length > 0) {
    generators.push(contextGenerator(useFacts));
    if (!setName) setName = `From your journals: ${description}`;
  }
  const engine = `${OFFLINE_ENGINE}:${generators.map((g) => g.id).join('+')}`;
  const difficulty = req.difficulty;

  return {
    ok: true,
    engine,
    setName,
    total,
    next(index: number): PracticeProblem {
      if (!(index >= 0 && index < total)) throw new RangeError(`problem index ${index} outside 0..${total - 1}`);
      const rng = makeRng(problemSeed(setSeed, index));
      const gen = generators[index % generators.length];
      const type = problemTypeAt(req.problemType, index);
      if (type === 'select_all') {
        // Four statements from the same topic; list-based generators take neighbouring entries.
        const items = [0, 1, 2, 3].map((k) => gen.make(rng, difficulty, index * 4 + k));
        return assembleSelectAll(items, `${gen.title}.`, difficulty, rng);
      }
      return assembleChoiceOrFree(type === 'mcq' ? withChoices(gen, rng, difficulty, index) : gen.make(rng, difficulty, index), type, difficulty, rng);
    },
  };
}

/**
 * An item that can be asked as multiple choice: some draws leave fewer than two distinct wrong
 * choices (1/2 − 1/2, a system whose x equals y), which would turn an mcq into a free response.
 * Draws again, a bounded number of times, from the same seeded stream.
 */
function withChoices(gen: TopicGenerator, rng: Rng, difficulty: Difficulty, index: number): Item {
  let item = gen.make(rng, difficulty, index);
  // Only computed problems are drawn again: a list-based generator (terms, facts) could give a
  // term another problem of the set already asks about.
  if (gen.family !== 'math') return item;
  for (let i = 0; i < 20 && distinctDistractors(item.answer, item.distractors).length < 2; i++) item = gen.make(rng, difficulty, index);
  return item;
}
