/**
 * A generated item is one question with its computed answer, the typical mistakes that lead to
 * other values, and a worked explanation. `assemble` turns items into the problem shapes of the
 * API (mcq, frq, select_all) so every topic family shares one way of writing choices.
 */
import type { Difficulty, PracticeProblem, ProblemType } from '../types.ts';
import type { Rng } from './rng.ts';

export interface Distractor {
  value: string;
  /** The mistake that produces this value, said to the student. */
  why: string;
}

export interface Item {
  prompt: string;
  answer: string;
  distractors: Distractor[];
  /** Worked solution, one step per line. */
  explanation: string;
  /** A short claim "<task> = <value>" for select-all statements. */
  claim(value: string): string;
  /** Rubric for free response. */
  scoring: string;
  /** Structured parameters, so tests can check answers independently. */
  params: Record<string, unknown>;
  /** Where the answer comes from, said in the explanation (default: the generator family's). */
  source?: string;
  /** School sub-topics: is a value right for this problem? Decided by the CAS from the problem itself. */
  verify?(value: string): boolean;
}

export interface TopicGenerator {
  id: string;
  title: string;
  family: 'math' | 'vocabulary' | 'context';
  /**
   * `index` is the generator's item slot: list-based generators (terms, facts) give slot k their
   * k-th entry, so distinct slots never ask about the same entry. Computed generators ignore it.
   */
  make(rng: Rng, difficulty: Difficulty, index: number): Item;
  /** How many distinct entries a list-based generator holds (undefined: computed, unbounded). */
  capacity?: number;
  /** A computed generator drawing from a short list: how many distinct problems a level has. */
  capacityAt?(difficulty: Difficulty): number;
  /** The generator as one set uses it (a list order of its own, so slot k asks entry k). */
  forSet?(rng: Rng): TopicGenerator;
}

/** Where each family's answers come from, for the explanation's "Source:" line. */
export const FAMILY_SOURCE: Record<TopicGenerator['family'], string> = {
  math: 'computed exactly by the computer algebra system (nerdamer), not recalled',
  vocabulary: 'WordNet 3.1 (the term\'s own gloss)',
  context: 'your own journals',
};

const KEYS = ['A', 'B', 'C', 'D', 'E', 'F'];

function norm(s: string): string {
  return s.replace(/\s+/g, '').toLowerCase();
}

/** Distractors that differ from the answer and from each other (by canonical text). */
export function distinctDistractors(answer: string, ds: readonly Distractor[]): Distractor[] {
  const seen = new Set([norm(answer)]);
  const out: Distractor[] = [];
  for (const d of ds) {
    const k = norm(d.value);
    if (seen.has(k) || d.value.trim() === '') continue;
    seen.add(k);
    out.push(d);
  }
  return out;
}

function base(difficulty: Difficulty): Pick<PracticeProblem, 'difficulty' | 'include_graph' | 'graph_description' | 'graph_url'> {
  return { difficulty, include_graph: false, graph_description: '', graph_url: '' };
}

export function assembleChoiceOrFree(item: Item, type: 'mcq' | 'frq', difficulty: Difficulty, rng: Rng): PracticeProblem {
  const ds = distinctDistractors(item.answer, item.distractors);
  if (type === 'frq' || ds.length < 2) {
    return {
      ...base(difficulty),
      problem_type: 'frq',
      problem_statement: item.prompt,
      correct_answer: item.answer,
      answer_choices: {},
      explanation: item.explanation,
      scoring_details: item.scoring,
    };
  }
  const chosen = ds.slice(0, 3);
  const options = rng.shuffle([{ value: item.answer, why: '' }, ...chosen]);
  const answer_choices: Record<string, string> = {};
  let correctKey = '';
  const notes: string[] = [];
  options.forEach((o, i) => {
    answer_choices[KEYS[i]] = o.value;
    if (o.value === item.answer) correctKey = KEYS[i];
    else notes.push(`${KEYS[i]} (${o.value}) ${o.why}.`);
  });
  return {
    ...base(difficulty),
    problem_type: 'mcq',
    problem_statement: item.prompt,
    correct_answer: correctKey,
    answer_choices,
    explanation: `${item.explanation}\nThe answer is ${correctKey}: ${item.answer}.\nWhy not the others: ${notes.join(' ')}`,
    scoring_details: `1 point for choice ${correctKey}; no credit otherwise.`,
  };
}

/**
 * Select-all from several independent items: each statement claims one item's answer or one of
 * its typical wrong values. At least one statement is true and at least one is false.
 */
export function assembleSelectAll(items: readonly Item[], heading: string, difficulty: Difficulty, rng: Rng): PracticeProblem {
  const n = items.length;
  const truth = items.map(() => rng.chance(0.5));
  if (!truth.some(Boolean)) truth[rng.int(0, n - 1)] = true;
  if (truth.every(Boolean)) truth[rng.int(0, n - 1)] = false;
  const answer_choices: Record<string, string> = {};
  const correct: string[] = [];
  const lines: string[] = [];
  items.forEach((item, i) => {
    const key = KEYS[i];
    const ds = distinctDistractors(item.answer, item.distractors);
    const isTrue = truth[i] || ds.length === 0;
    if (isTrue) {
      answer_choices[key] = item.claim(item.answer);
      correct.push(key);
      lines.push(`${key} is correct: ${item.explanation.split('\n').slice(-1)[0]}`);
    } else {
      const d = ds[0];
      answer_choices[key] = item.claim(d.value);
      lines.push(`${key} is wrong (${d.why}); the correct value is ${item.answer}.`);
    }
  });
  return {
    ...base(difficulty),
    problem_type: 'select_all',
    problem_statement: `${heading} Select all statements that are correct.`,
    correct_answer: correct.join(','),
    answer_choices,
    explanation: lines.join('\n'),
    scoring_details: `Choices ${correct.join(', ')} are correct. Score = max(0, correct picks − wrong picks) / ${correct.length}: each wrong pick cancels one correct pick and no score is negative.`,
  };
}

export function problemTypeAt(setType: ProblemType | 'mixed', index: number): ProblemType {
  if (setType !== 'mixed') return setType;
  return (['mcq', 'frq', 'select_all'] as const)[index % 3];
}
