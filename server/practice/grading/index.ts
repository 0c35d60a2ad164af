/**
 * Grading of one answer: choice problems exactly (select-all with partial credit), mathematics by
 * symbolic equivalence, text against a rubric of concepts. Throws GradingInputError when the
 * problem lacks what grading needs (the route answers 422 with its `loc`).
 */
import type { GradeInput, GradeResult } from '../types.ts';
import { gradeChoice } from './choice.ts';
import { GradingInputError } from './errors.ts';
import { gradeMath, looksMathematical } from './math/index.ts';
import { gradeRubric, parseRubric } from './rubric/index.ts';
import { checkAddedClaim } from './added-claim.ts';
import { gradeClock, readClock } from './clock.ts';
import { gradeShortAnswer, isShortReference } from './short-answer.ts';
import { gradeLabelledValues } from './labelled-values.ts';
import { gradeTermList } from './term-list.ts';

export { GradingInputError } from './errors.ts';

const LOC = (field: string) => ['body', 'problem', field];

/**
 * A rubric that gives marks for more than the answer: several criteria, levels or a count. A
 * one-line rubric that restates the reference ("Full credit for f'(x) = 36x^3 - 2x + 1/2 in any
 * equivalent form", as generated problems carry) gives marks for the answer alone.
 */
function marksBeyondAnswer(rubric: string, reference: string): boolean {
  const squash = (s: string) => s.replace(/\s+/g, '');
  if (!rubric.includes('\n') && squash(rubric).includes(squash(reference))) return false;
  try {
    const criteria = parseRubric(rubric, false);
    return criteria.length > 1 || criteria.some((c) => (c.kind === 'levels' && c.levels.length > 1) || c.kind === 'each');
  } catch {
    return false;
  }
}

/**
 * Every grade says how sure it is: `confidence` is `high` only when every rule that decided it is
 * one the grader can check (docs/practice-api.md, "Confidence"), and `needs_review` asks a teacher
 * to look whenever it is `low`.
 */
export function gradeAnswer(input: GradeInput): GradeResult {
  const g = gradeAnswerOnce(input);
  const confidence = g.confidence ?? 'high';
  return { ...g, confidence, needs_review: g.needs_review ?? confidence === 'low' };
}

function gradeAnswerOnce(input: GradeInput): GradeResult {
  if (typeof input.user_answer !== 'string') throw new GradingInputError(LOC('user_answer'), 'user_answer is required: the student answer to grade.');
  const type = (input.problem_type ?? '').toLowerCase().replace(/[\s-]+/g, '_');
  const choices = input.answer_choices ?? {};
  const ref = input.correct_answer?.trim() ?? '';
  const rubric = input.scoring_details?.trim() ?? '';

  if (type === 'mcq' || type === 'multiple_choice' || type === 'select_all' || type === 'multi_select') {
    if (Object.keys(choices).length === 0) throw new GradingInputError(LOC('answer_choices'), 'answer_choices is required to grade a choice problem.');
    if (!ref) throw new GradingInputError(LOC('correct_answer'), 'correct_answer is required to grade a choice problem: the key of the right choice (select_all: all right keys, e.g. "A,C").');
    return gradeChoice(type === 'mcq' || type === 'multiple_choice' ? 'mcq' : 'select_all', input.user_answer, ref, choices);
  }

  if (!ref && !rubric) {
    throw new GradingInputError(
      LOC('correct_answer'),
      'Grading a free-response answer needs a reference: give correct_answer (the reference answer) or scoring_details (a rubric, one concept per line, optional points like "(2 pts)").',
    );
  }
  const statement = input.problem_statement ?? '';
  // A mathematical reference decides, unless a rubric gives marks for more than the answer
  // (working, formula, units: "Award 3 marks for: ..."); a generated problem's one-line
  // "Full credit for x = 3" is not such a rubric. Such a one-line scheme may still state a form
  // ("Units are required", "no marks without units"), read with the statement's. A claim added to
  // a number ("7, which makes it alkaline") is checked after.
  // A time of day the question asks about ("18:30" when a flight lands) is a time, not a ratio:
  // "18.30" and "6:30 pm" are that time (tuned on G). A question about a ratio keeps it a ratio.
  // Only an answer read as a time is graded so here; any other is left to the CAS and to the rules below.
  const time = !rubric && ref && /:|[a-z]/i.test(ref) && !/\bratios?\b/i.test(statement) && readClock(input.user_answer) ? gradeClock(input.user_answer, ref, statement) : null;
  if (time) return time;
  if (ref && looksMathematical(ref) && !(rubric && marksBeyondAnswer(rubric, ref))) {
    const math = gradeMath(input.user_answer, ref, statement, rubric);
    const checked = checkAddedClaim(math, ref, input.user_answer, statement);
    // A claim refused by WordNet's glosses is weaker evidence than the CAS.
    return checked === math || checked.score === math.score ? checked : { ...checked, confidence: 'low', needs_review: true };
  }
  // Several values each with a label ("mean = 5, standard deviation = 2", "centre (2, −3), radius 5",
  // "below 0 or above 32"): value by value, by label or place (tuned on H).
  const labelled = !rubric && ref ? gradeLabelledValues(input.user_answer, ref) : null;
  if (labelled) return labelled;
  // A time of day ("9:35 pm") is compared as minutes after midnight, in any of its writings.
  const clock = !rubric && ref ? gradeClock(input.user_answer, ref, statement) : null;
  if (clock) return clock;
  if (rubric) return gradeRubric(input.user_answer, rubric, false, statement, ref);
  // "foil, épée and sabre": every term of a listed reference, each as a term (tuned on H).
  const list = gradeTermList(input.user_answer, ref, statement);
  if (list) return list;
  if (isShortReference(ref)) return gradeShortAnswer(input.user_answer, ref, input.problem_statement ?? '');
  return gradeRubric(input.user_answer, ref, true);
}
