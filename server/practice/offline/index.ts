/**
 * The offline practice engine: plans a set from a description and produces each problem on
 * demand (`next(i)`), so a job runner can report progress and yield between problems.
 * Every answer is computed (CAS for mathematics, WordNet for vocabulary, the caller's own notes
 * for context questions); a description no generator covers fails with a message that says so.
 */
import type { Difficulty, GenerateRequest, PlanResult, PracticeProblem, ProblemType } from '../types.ts';
import { contextGenerator, extractFacts, type Fact } from './context.ts';
import { capacityReason, mathOnlyReason, noFactsReason, partialMathReason, refusal, vocabReason } from './coverage.ts';
import { detectMath, wantsVocabulary } from './detect.ts';
import { looksMathematical } from './school/match.ts';
import { assembleChoiceOrFree, assembleSelectAll, distinctDistractors, FAMILY_SOURCE, problemTypeAt, type Item, type TopicGenerator } from './item.ts';
import { makeRng, problemSeed, type Rng } from './rng.ts';
import { questionKey } from './question-key.ts';
import { findVocabTopics } from './vocab/topics.ts';
import { vocabGenerator } from './vocab/generator.ts';

import { MAX_COUNT, OFFLINE_ENGINE } from './limits.ts';

export { MAX_COUNT, OFFLINE_ENGINE };
export { HOW_TO_GET_MORE, OFFLINE_COVERAGE } from './coverage.ts';

/** Statements of one select_all problem; a list with fewer entries uses all it has (at least 2). */
const SELECT_ALL_ITEMS = 4;
/** Draws of one problem before a set gives up on making it differ from the earlier ones. */
const MAX_DRAWS = 30;

/** A problem could not be made different from the set's earlier ones: the set fails, nothing is repeated. */
export class DuplicateProblemError extends Error {}

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

/** Which generator makes problem i, its type, and its slot among that generator's problems of the same kind. */
interface Slot {
  gen: TopicGenerator;
  type: ProblemType;
  /** k-th mcq/frq of its generator, or k-th select_all. */
  rank: number;
}

function layout(generators: readonly TopicGenerator[], setType: GenerateRequest['problemType'], total: number): Slot[] {
  const seen = new Map<string, number>();
  return Array.from({ length: total }, (_, i) => {
    const gen = generators[i % generators.length]!;
    const type = problemTypeAt(setType, i);
    const k = `${gen.id}|${type === 'select_all' ? 'sa' : 'q'}`;
    const rank = seen.get(k) ?? 0;
    seen.set(k, rank + 1);
    return { gen, type, rank };
  });
}

/** Why the list-based generators cannot fill the layout without repeating a question, if they cannot. */
function capacityProblem(slots: readonly Slot[], total: number, difficulty: Difficulty): string | undefined {
  for (const gen of new Set(slots.map((s) => s.gen))) {
    if (gen.capacityAt) {
      const questions = slots.filter((s) => s.gen === gen && s.type !== 'select_all').length;
      const cap = gen.capacityAt(difficulty);
      if (questions > cap) return capacityReason(`the ${difficulty} problems of ${gen.title.toLowerCase()}`, cap, questions, total);
      continue;
    }
    if (gen.capacity === undefined) continue;
    const questions = slots.filter((s) => s.gen === gen && s.type !== 'select_all').length;
    const selectAll = slots.some((s) => s.gen === gen && s.type === 'select_all');
    const what = gen.family === 'context' ? 'the "X is Y" sentences search_for_problems found in your journals' : `the WordNet terms of ${gen.title.replace(/^Vocabulary: /, '')}`;
    if (questions > gen.capacity) return capacityReason(what, gen.capacity, questions, total);
    if (selectAll && gen.capacity < 2) return capacityReason(what, gen.capacity, 2, total);
    // A multiple-choice question needs two wrong choices from other entries; with fewer it would
    // silently become free response.
    if (slots.some((s) => s.gen === gen && s.type === 'mcq') && gen.capacity < 3) return capacityReason(`${what} (a multiple-choice question needs 3)`, gen.capacity, 3, total);
  }
  return undefined;
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

  const math = explicitVocab ? { generators: [], leftover: [] } : detectMath(description);
  if (math.generators.length > 0 || math.leftover.length > 0) {
    // A description that asks for more than the sub-topics make is refused, not half-answered.
    if (math.leftover.length > 0) return { ok: false, message: refusal(partialMathReason(description, math)) };
    generators.push(...math.generators.map((g) => g.forSet?.(planRng) ?? g));
    setName = `${math.generators.map((g) => g.title).join(', ')} (${req.difficulty})`;
  } else if (!explicitVocab && looksMathematical(description)) {
    // A mathematical description no sub-topic covers is never answered with a vocabulary set.
    if (facts.length === 0) return { ok: false, message: refusal(mathOnlyReason(description)) };
  } else if (facts.length === 0 || explicitVocab) {
    // With journal context and no explicit vocabulary request, the notes are the subject.
    const vocab = findVocabTopics(description, explicitVocab);
    if (vocab.ok) {
      for (const topic of vocab.topics) generators.push(vocabGenerator(topic, planRng.shuffle(topic.terms.map((_, i) => i))));
      setName = generators.map((g) => g.title).join(' and ');
    } else if (facts.length === 0) {
      const reason = req.context?.length ? noFactsReason(description, req.context.length) : vocabReason(description, vocab);
      return { ok: false, message: refusal(reason) };
    }
  }

  const useFacts = generators.length > 0 ? relevantFacts(facts, description) : facts;
  if (useFacts.length > 0) {
    generators.push(contextGenerator(useFacts));
    if (!setName) setName = `From your journals: ${description}`;
  }
  const slots = layout(generators, req.problemType, total);
  const tooFew = capacityProblem(slots, total, req.difficulty);
  if (tooFew) return { ok: false, message: tooFew };
  const engine = `${OFFLINE_ENGINE}:${generators.map((g) => g.id).join('+')}`;
  const difficulty = req.difficulty;

  /** Problem i, drawn `draw` times before: draw 0 is the set seed's own; later ones vary it. */
  const make = (i: number, draw: number): PracticeProblem => {
    const { gen, type, rank } = slots[i]!;
    const seed = draw === 0 ? problemSeed(setSeed, i) : problemSeed(problemSeed(setSeed, i), 1000 + draw);
    const rng = makeRng(seed);
    let items: Item[];
    let problem: PracticeProblem;
    if (type === 'select_all') {
      // Statements from the same topic; list-based generators take neighbouring entries, shifted on a redraw.
      const n = gen.capacity === undefined ? SELECT_ALL_ITEMS : Math.min(SELECT_ALL_ITEMS, gen.capacity);
      items = [];
      for (let k = 0; k < n; k++) {
        // A computed generator may draw the same problem twice: a statement is not repeated within one problem.
        let item = gen.make(rng, difficulty, rank * n + k + draw);
        for (let t = 0; gen.family === 'math' && t < 20 && items.some((it) => it.prompt === item.prompt); t++) item = gen.make(rng, difficulty, rank * n + k + draw + 100 * (t + 1));
        items.push(item);
      }
      problem = assembleSelectAll(items, `${gen.title}.`, difficulty, rng);
    } else {
      items = [type === 'mcq' ? withChoices(gen, rng, difficulty, rank) : gen.make(rng, difficulty, rank)];
      problem = assembleChoiceOrFree(items[0]!, type, difficulty, rng);
    }
    const sources = [...new Set(items.map((it) => it.source ?? FAMILY_SOURCE[gen.family]))];
    return { ...problem, explanation: `${problem.explanation}\nSource: ${sources.join('; ')}.` };
  };

  // Problems are made in order and kept, so each is checked against the earlier ones; next(i)
  // still gives the same problem whatever the order of calls (it makes the earlier ones first).
  const made: PracticeProblem[] = [];
  const keys = new Set<string>();
  const advance = (): void => {
    const i = made.length;
    for (let draw = 0; draw < MAX_DRAWS; draw++) {
      const p = make(i, draw);
      const key = questionKey(p);
      if (keys.has(key)) continue;
      keys.add(key);
      made.push(p);
      return;
    }
    throw new DuplicateProblemError(
      `The offline engine could not make problem ${i + 1} of ${total} differ from the earlier ones (${MAX_DRAWS} draws); the set was stopped rather than repeat a question. Ask for fewer problems.`,
    );
  };

  return {
    ok: true,
    engine,
    setName,
    total,
    next(index: number): PracticeProblem {
      if (!(index >= 0 && index < total)) throw new RangeError(`problem index ${index} outside 0..${total - 1}`);
      while (made.length <= index) advance();
      return made[index]!;
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
