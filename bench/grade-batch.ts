/**
 * Batch grading (POST /v1/interactives/practice/grade/batch): the time to grade and group 500
 * answers of a class to one problem (math, short answer, rubric), in-process as the worker thread
 * runs it, and its overhead against grading the same 500 answers one by one (goal: grouping and
 * reviews cost at most 20% more), for a class's answers (many alike: each distinct text is graded
 * once) and for 500 different texts (the worst case).
 */
import { gradeBatch, type BatchProblem } from '../server/practice/grading/batch.ts';
import { gradeAnswer } from '../server/practice/grading/index.ts';

const PROBLEMS: Record<string, { problem: BatchProblem; answers: string[] }> = {
  math: {
    problem: { problem_type: 'frq', problem_statement: 'Solve x^2 - 5x + 6 = 0.', correct_answer: 'x = 2, x = 3' },
    answers: ['x = 2, x = 3', 'x=3, x=2', '2 and 3', 'x = 2', 'x = -2, x = -3', '{2, 3}', 'x = 6', 'x = 2 or x = 3', '3, 2', 'x = 1, x = 6'],
  },
  short: {
    problem: { problem_type: 'frq', problem_statement: 'Which organelle releases energy from glucose?', correct_answer: 'mitochondria' },
    answers: ['mitochondria', 'the mitochondria', 'Mitochondrion', 'mitocondria', 'ribosomes', 'the nucleus', 'mitochondria? no, ribosomes', 'chloroplast', 'the powerhouse of the cell', 'I think mitochondria'],
  },
  rubric: {
    problem: {
      problem_type: 'frq',
      problem_statement: 'Explain how osmosis moves water into a plant root.',
      scoring_details: '- names osmosis (1 mark)\n- water moves from a dilute solution to a concentrated one (2 marks)\n- across a partially permeable membrane (1 mark)',
    },
    answers: [
      'Osmosis: water moves from a dilute solution in the soil to the more concentrated root cells across a partially permeable membrane.',
      'Water moves by osmosis across the membrane.',
      'Diffusion of water.',
      'Osmosis moves water from high water concentration to low across a partially permeable membrane.',
      'The root absorbs water through root hairs.',
      'osmosis',
      'Water goes from a concentrated solution to a dilute one.',
      'By active transport.',
      'Osmosis through a partially permeable membrane, from dilute to concentrated.',
      'It sucks the water up.',
    ],
  },
};

/** 500 answers as a class writes them: the common ones many times, each with small variations of case and spacing. */
function classOf(answers: string[]): string[] {
  return Array.from({ length: 500 }, (_, i) => {
    const a = answers[(i * 7 + (i >> 3)) % answers.length]!;
    return i % 3 === 0 ? a.toLowerCase() : i % 5 === 0 ? ` ${a} ` : a;
  });
}

/** Rounds of the distinct-texts comparison (odd: the median is one of them). */
const ROUNDS = 5;

export async function benchGradeBatch(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, { problem, answers }] of Object.entries(PROBLEMS)) {
    const all = classOf(answers);
    // Warm-up of both ways (CAS, WordNet, the rubric's reading, the parse cache), then each timed.
    gradeBatch(problem, all);
    for (const a of all) gradeAnswer({ ...problem, user_answer: a });
    const t0 = performance.now();
    const batch = gradeBatch(problem, all, [{ answer_index: 0, score: 1 }]);
    const batchMs = performance.now() - t0;
    const t1 = performance.now();
    for (const a of all) gradeAnswer({ ...problem, user_answer: a });
    const singleMs = performance.now() - t1;
    out[`batch_500_${name}_ms`] = Math.round(batchMs);
    out[`batch_500_${name}_groups`] = batch.groups.length;
    out[`batch_500_${name}_vs_one_by_one (goal <= 1.2)`] = Math.round((batchMs / singleMs) * 100) / 100;
    // The worst case: 500 different texts (each graded), e.g. every student wrote their own sentence.
    // Each side grades texts of its own that neither has graded before (a text graded once is
    // partly cached: timing one side on the other's texts favours the second), warmed on a set of
    // the same shape, in alternating order; the median of ROUNDS rounds.
    const distinct = (round: number) =>
      all.map((a, i) => (name === 'math' ? a.replace(/\d+/, (d) => String(Number(d) + 10 * i + 100_000 * round)) : `${a} (${i}.${round})`));
    gradeBatch(problem, distinct(0));
    for (const a of distinct(1)) gradeAnswer({ ...problem, user_answer: a });
    const batches: number[] = [];
    const singles: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const timeBatch = (texts: string[]) => {
        const t = performance.now();
        gradeBatch(problem, texts);
        batches.push(performance.now() - t);
      };
      const timeSingles = (texts: string[]) => {
        const t = performance.now();
        for (const a of texts) gradeAnswer({ ...problem, user_answer: a });
        singles.push(performance.now() - t);
      };
      const [mine, theirs] = [distinct(2 + 2 * round), distinct(3 + 2 * round)];
      if (round % 2 === 0) [timeBatch(mine), timeSingles(theirs)];
      else [timeSingles(theirs), timeBatch(mine)];
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[ROUNDS >> 1]!;
    out[`batch_500_${name}_distinct_ms`] = Math.round(median(batches));
    out[`batch_500_${name}_distinct_vs_one_by_one (goal <= 1.2)`] = Math.round((median(batches) / median(singles)) * 100) / 100;
  }
  return out;
}
