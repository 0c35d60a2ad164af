/**
 * Practice engine benchmark: time to plan and generate a 15-problem set offline (per topic, after
 * a warm-up), the longest single next() call (how long the event loop is held between the job
 * runner's yields), and grading calls per second for choice, math and rubric answers.
 */
import { gradeAnswer } from '../server/practice/grading/index.ts';
import { planSet } from '../server/practice/offline/index.ts';
import type { GradeInput } from '../server/practice/types.ts';

const TOPICS: Record<string, string> = {
  linear: 'grade 8 linear equations',
  quadratic: 'quadratic equations',
  derivatives: 'derivatives of polynomials',
  percentages: 'percentages word problems',
  // A category with at least 10 terms: a 15-problem mixed set asks 10 distinct ones (no term twice).
  vocabulary: 'vocabulary: chemical elements',
};

function generate(description: string, seed: number): { total: number; maxStep: number } {
  const t0 = performance.now();
  const plan = planSet({ description, count: 15, problemType: 'mixed', difficulty: 'medium', seed });
  if (!plan.ok) throw new Error(plan.message);
  let maxStep = performance.now() - t0;
  for (let i = 0; i < plan.total; i++) {
    const t = performance.now();
    plan.next(i);
    maxStep = Math.max(maxStep, performance.now() - t);
  }
  return { total: performance.now() - t0, maxStep };
}

function rate(input: GradeInput, minMs = 300): number {
  gradeAnswer(input);
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs) {
    gradeAnswer(input);
    n++;
  }
  return Math.round((n * 1000) / (performance.now() - t0));
}

export async function benchPractice(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, description] of Object.entries(TOPICS)) {
    generate(description, 1); // warm-up: first CAS calls and WordNet index loads
    const runs = [2, 3, 4].map((seed) => generate(description, seed));
    out[`practice_set15_${name}_ms`] = Math.round(Math.min(...runs.map((r) => r.total)) * 10) / 10;
    out[`practice_set15_${name}_max_problem_ms`] = Math.round(Math.max(...runs.map((r) => r.maxStep)) * 10) / 10;
  }
  out.grade_choice_per_s = rate({ problem_type: 'select_all', problem_statement: 'q', user_answer: 'A, C', correct_answer: 'A,C', answer_choices: { A: '1', B: '2', C: '3', D: '4' } });
  out.grade_math_per_s = rate({ problem_type: 'frq', problem_statement: 'q', user_answer: '3x^2+2', correct_answer: '2 + 3*x^2' });
  out.grade_math_solutions_per_s = rate({ problem_type: 'frq', problem_statement: 'q', user_answer: 'x = 3, x = -1/2', correct_answer: 'x = -1/2, x = 3' });
  out.grade_math_form_per_s = rate({ problem_type: 'frq', problem_statement: 'Write 2/3 as a decimal to 2 decimal places.', user_answer: 'It is about 0.67', correct_answer: '2/3' });
  out.grade_short_answer_per_s = rate({ problem_type: 'frq', problem_statement: 'Which is the largest planet?', user_answer: 'Saturn? no, Jupiter', correct_answer: 'Jupiter' });
  out.grade_rubric_per_s = rate({
    problem_type: 'frq',
    problem_statement: 'q',
    user_answer: "Mitochondria make energy for the cell, but they don't have their own DNA.",
    scoring_details: '- Mitochondria produce energy (ATP) (2 pts)\n- They have their own DNA (1 pt)\n- Found in the cytoplasm (1 pt)',
  });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchPractice());
}
