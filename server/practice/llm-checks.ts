/**
 * Re-validation of what an LLM returns, with the offline engines as the judge where they can be:
 *
 * - a generated problem must be well formed beyond its schema (distinct choices, exactly one
 *   right mcq choice, a select-all with a wrong statement, mathematics that the CAS reads) and
 *   must not repeat a problem of its set; the reason it fails is told to the model when it is
 *   asked again;
 * - a grade of an answer whose reference is mathematics is checked by the CAS; when the two
 *   disagree about full credit, the CAS decides and the explanation says so.
 *
 * The offline grader loads on first use (it pulls in the CAS and the lemmatizer).
 */
import type { GradeInput, GradeResult, PracticeProblem } from './types.ts';
import { normalizeStatement, questionKey } from './offline/question-key.ts';

async function grader(): Promise<(input: GradeInput) => GradeResult> {
  return (await import('./grading/index.ts')).gradeAnswer;
}

/** Text meant as mathematics: digits, operators and single-letter variables only ("x = 3/4", "2x^2 + 1"). */
function meantAsMath(s: string): boolean {
  const t = s.trim();
  if (!/[0-9]/.test(t) && !/[=+\-*/^×÷−]/.test(t)) return false;
  return !/[a-zA-Z]{2,}/.test(t.replace(/\b(sqrt|pi|sin|cos|tan|ln|log|exp|abs)\b/g, '')) && /^[\w\s.,=+\-*/^()[\]{}×÷−·√π²³<>≤≥|'$%]+$/.test(t);
}

/** Whether the offline grader reads `s` as mathematics and finds it equal to itself (it parses). */
function parsesAsMath(gradeAnswer: (input: GradeInput) => GradeResult, s: string): boolean {
  try {
    const g = gradeAnswer({ problem_type: 'frq', problem_statement: '', user_answer: s, correct_answer: s });
    return g.method === 'math' && g.score === g.max_score;
  } catch {
    return false;
  }
}

/** Whether two texts are the same mathematical value by the CAS (false when either is not mathematics). */
function sameValue(gradeAnswer: (input: GradeInput) => GradeResult, a: string, b: string): boolean {
  try {
    const g = gradeAnswer({ problem_type: 'frq', problem_statement: '', user_answer: a, correct_answer: b });
    return g.method === 'math' && g.score === g.max_score;
  } catch {
    return false;
  }
}

/**
 * Why a generated problem cannot be used, or undefined when it can. `earlier` are the problems
 * of the set made before it.
 */
export async function problemDefect(p: PracticeProblem, earlier: readonly PracticeProblem[]): Promise<string | undefined> {
  const key = questionKey(p);
  const twin = earlier.findIndex((e) => questionKey(e) === key);
  if (twin >= 0) return `it repeats problem ${twin + 1} of the set ("${p.problem_statement.slice(0, 80)}")`;
  const gradeAnswer = await grader();

  if (p.problem_type === 'frq') {
    if (meantAsMath(p.correct_answer) && !parsesAsMath(gradeAnswer, p.correct_answer)) {
      return `its correct_answer "${p.correct_answer.slice(0, 80)}" is meant as mathematics but does not parse`;
    }
    return undefined;
  }

  const entries = Object.entries(p.answer_choices);
  const seen = new Map<string, string>();
  for (const [k, v] of entries) {
    const n = normalizeStatement(v);
    if (seen.has(n)) return `choices ${seen.get(n)} and ${k} are the same ("${v.slice(0, 60)}")`;
    seen.set(n, k);
  }
  const right = p.correct_answer.split(',').map((k) => k.trim());
  const wrong = entries.filter(([k]) => !right.includes(k));
  if (p.problem_type === 'select_all') {
    if (right.length === 0 || wrong.length === 0) return 'a select-all problem needs at least one right and one wrong statement';
  }
  for (const k of right) {
    const text = p.answer_choices[k]!;
    if (meantAsMath(text) && !parsesAsMath(gradeAnswer, text)) return `the right choice ${k} "${text.slice(0, 60)}" is meant as mathematics but does not parse`;
    // A wrong choice equal to a right one (1/2 and 0.5) makes two right answers.
    for (const [w, other] of wrong) if (sameValue(gradeAnswer, other, text)) return `choice ${w} ("${other}") equals the right choice ${k} ("${text}"), so ${p.problem_type === 'mcq' ? 'more than one choice is right' : 'it is marked wrong although it is right'}`;
  }
  return undefined;
}

export interface CheckedGrade {
  grade: Omit<GradeResult, 'method'> & { method: GradeResult['method'] | 'llm' };
  /** True when the CAS overruled the LLM (the verdict is the offline engine's). */
  overruled: boolean;
}

/**
 * The LLM's grade, checked by the CAS when the reference answer is mathematics: on disagreement
 * about full credit the CAS grade is returned; either way the explanation says the CAS checked it.
 */
export async function checkGradeWithCas(input: GradeInput, llm: Omit<GradeResult, 'method'> & { method: 'llm' }, engine: string): Promise<CheckedGrade> {
  if (!input.correct_answer?.trim()) return { grade: llm, overruled: false };
  const gradeAnswer = await grader();
  let cas: GradeResult;
  try {
    cas = gradeAnswer({ ...input, problem_type: 'frq' });
  } catch {
    return { grade: llm, overruled: false };
  }
  if (cas.method !== 'math') return { grade: llm, overruled: false };
  const llmFull = llm.score >= llm.max_score;
  const casFull = cas.score >= cas.max_score;
  if (llmFull === casFull) {
    return {
      // Confirmed by the CAS: as sure as the CAS's own verdict.
      grade: { ...llm, confidence: cas.confidence, needs_review: cas.needs_review, explanation: `${llm.explanation}\nChecked by the computer algebra system against the reference answer ${input.correct_answer.trim()}: ${casFull ? 'equal' : 'not equal'}, as graded.` },
      overruled: false,
    };
  }
  return {
    grade: {
      ...cas,
      explanation: `Checked by the computer algebra system against the reference answer ${input.correct_answer.trim()}: the answer is ${casFull ? 'equal to it (full credit)' : 'not equal to it'}. The LLM (${engine}) gave ${llm.score}/${llm.max_score}; the CAS decides. ${cas.explanation}`,
    },
    overruled: true,
  };
}
