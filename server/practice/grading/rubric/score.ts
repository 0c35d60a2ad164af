/**
 * Scoring an answer against read criteria, with an explanation per criterion: met, partly met,
 * missed, contradicted (the answer says the opposite) or not accepted (it gives only what the
 * rubric refuses); for levels, the level reached and why not the next (levels.ts); for per-item
 * criteria, the items counted. One concept is judged by concept.ts.
 */
import type { GradeResult } from '../../types.ts';
import { CONFIDENCE } from '../thresholds.ts';
import { GradingInputError } from '../errors.ts';
import { forms } from '../text.ts';
import { calcFacts } from './calc.ts';
import { categoryOf, categoryWords, onlyCounts } from './category.ts';
import { EXAMPLE_WORDS, givesExample, judgeConcept, missingWords, type Outcome } from './concept.ts';
import { contrariesOf } from './contrary.ts';
import { countItems } from './count.ts';
import { scoreLevels } from './levels.ts';
import { type Answer, criterionWords, isContradicted, type Judgement, questionWords, NEGATIONS, readAnswer, STOPWORDS, tokenize } from './match.ts';
import { numberExamples, numberProperty } from './number-example.ts';
import { fmt, readReference, readRubric } from './parse.ts';
import { questionTotal } from './totals.ts';
import type { Concept, Criterion, PerItem, ReadRubric } from './types.ts';

/**
 * Word comparisons one grade may make (distinct rubric words x distinct answer words): each is a
 * lemma, synonym and spelling check, so this keeps a grade within a few tens of milliseconds. A
 * long essay (1,000 distinct words) against a rubric of 400 distinct words fits.
 */
export const MAX_WORD_PAIRS = 400_000;

/** Wordings one grade may compare (criteria, levels, alternatives, options): a real rubric has tens. */
export const MAX_WORDINGS = 400;

export const LAYOUTS =
  'one criterion per line or bullet ("- names X (1 mark)"), several on a line with their points ("1 point: X. 1 point: Y", "X (1), Y (2)"), ' +
  'a heading over a list ("Award 3 marks for:"), level descriptors ("2 marks: ... / 1 mark: ..."), per-item counts ("1 mark for each reason, up to 3") ' +
  'or a sentence saying what a good answer contains';

/** "an example of either", "one example": which example is not content. */
const DETERMINERS = new Set(['either', 'each', 'one', 'both', 'any', 'another', 'other']);

function scoreConcept(c: Concept, answer: Answer, fromReference: boolean): Outcome {
  // "Gives a correct example of a prime number" for a question about prime numbers: an example is asked for.
  // (The question may say "example" too: "Give an example and explain why ...".)
  const property = numberProperty(c.text, answer.statement ?? '');
  const words = criterionWords((c.variants[0] ?? '').replace(property?.phrase ?? '\0', ' ')).filter((w) => !DETERMINERS.has(w));
  const asksExample = words.some((w) => EXAMPLE_WORDS.has(w)) && words.every((w) => EXAMPLE_WORDS.has(w) || [...forms(w)].some((f) => answer.question.has(f)));
  if (!fromReference && c.variants.length === 1 && asksExample) {
    // "1 mark for an example": an answer gives one rather than saying the word; a number's property is checked.
    const numbers = property && numberExamples(answer.text, property);
    const given = numbers ? numbers.good.length > 0 : givesExample(answer.text);
    const pts = `(${given ? fmt(c.points) : 0}/${fmt(c.points)})`;
    if (given) return { got: c.points, line: `Met: ${c.text} ${pts} (${numbers ? `${numbers.good[0]} is ${property!.name}` : 'an example is given'}).`, met: [c.text], missed: [], evidence: numbers ? String(numbers.good[0]) : '', sure: !!numbers };
    const why = numbers?.offered.length ? `${numbers.offered.slice(0, 3).join(', ')} ${numbers.offered.length > 1 ? 'are' : 'is'} not ${property!.name}` : 'no example given';
    return { got: 0, line: `Missed: ${c.text} ${pts} — ${why}.`, met: [], missed: [c.text], evidence: '', sure: false };
  }
  const { fraction: f, best: b, rejected } = judgeConcept(c.variants, c.rejects, answer, fromReference);
  const evidence = got0(f) ? '' : quote(answer.text, b.used);
  // Marks are whole: a half-said one-mark criterion earns nothing; a two-mark one half its marks.
  const got = Math.floor(c.points * f);
  const pts = `(${fmt(got)}/${fmt(c.points)})`;
  if (rejected) return { got: 0, line: `Not accepted: "${c.text}" — the answer gives "${rejected}", which the rubric does not accept (0/${fmt(c.points)}).`, met: [], missed: [`${c.text} (not accepted: ${rejected})`], evidence: '', sure: true };
  if (isContradicted(b)) return { got: 0, line: `Contradicted: "${c.text}" — ${b.why ?? 'the answer says the opposite (negation)'} (0/${fmt(c.points)}).`, met: [], missed: [`${c.text} (contradicted)`], evidence: '', sure: false };
  if (f === 1) {
    const how = b.matches.includes('synonym') ? ' (by synonym)' : b.matches.includes('spelling') ? ' (allowing for spelling)' : '';
    // Every key word said as written (or a form of it): checkable. A synonym is a WordNet link, which may be of a rare sense.
    return { got, line: `Met: ${c.text} ${pts}${how}.`, met: [c.text], missed: [], evidence, sure: b.coverage === 1 && !b.matches.includes('synonym'), used: b.used };
  }
  if (f > 0) return { got, line: `Partly met: ${c.text} ${pts}${missingWords(b)}.`, met: [`${c.text} (partly)`], missed: [], evidence, sure: false, used: b.used };
  if (b.otherTerm) return { got, line: `Missed: ${c.text} ${pts} — "${b.otherTerm}" names something else.`, met: [], missed: [c.text], evidence: '', sure: true };
  // Refused with none of its words said: checkable. Some of them said (under the threshold): borderline.
  // A step of working ("= 2π × 4 × 10") missed by its words, the answer writing numbers: the answer may
  // write that step's value another way ("80π"); no sure miss (tuned on I).
  const working = /[\dπ)]\s*[×*/^+−-]\s*[\dπ(]/.test(c.text) && /\d/.test(answer.text);
  return { got, line: `Missed: ${c.text} ${pts}.`, met: [], missed: [c.text], evidence: '', sure: b.coverage <= CONFIDENCE.sureMissCoverage && !working, blank: b.coverage <= CONFIDENCE.sureMissCoverage };
}

const got0 = (f: number) => f === 0;

/**
 * The answer's words that met a criterion, as the answer writes them: the shortest stretch of the
 * answer holding them when it is short, else the words themselves joined by " … ".
 */
export function quote(text: string, used: string[]): string {
  if (!used.length) return '';
  const tokens = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)];
  const want = new Set(used.map((u) => u.toLowerCase()));
  const at = tokens.map((t, i) => (want.has(t[0].toLowerCase()) ? i : -1)).filter((i) => i >= 0);
  if (!at.length) return used.join(' … ');
  const [first, last] = [at[0]!, at[at.length - 1]!];
  if (last - first > CONFIDENCE.maxQuoteWords) return [...new Set(at.map((i) => tokens[i]![0]))].join(' … ');
  return text.slice(tokens[first]!.index!, tokens[last]!.index! + tokens[last]![0].length);
}

/**
 * A two-word option met by its second word alone, which the answer gives with another word or a
 * denial before it: "round arches" is not "pointed arches", nor "no perspective" "linear
 * perspective". Its first word alone is fine ("alliances" for "the alliance system").
 */
function otherModifier(option: string, j: Judgement, answer: Answer): boolean {
  const words = criterionWords(option);
  if (words.length !== 2 || j.missing[0] !== words[0] || j.used.length !== 1) return false;
  const tokens = tokenize(answer.text);
  const at = tokens.indexOf(j.used[0]!);
  const before = tokens[at - 1];
  return at > 0 && before !== undefined && (NEGATIONS.has(before) || !STOPWORDS.has(before));
}

/** "Give examples of renewable energy sources": what a descriptor that only counts ("each example") is about. */
/** "Give two examples of mammals ...": the category a rubric's bare "each correct example" means. */
function categoryFromQuestion(statement: string): Pick<PerItem, 'category' | 'contraries'> | null {
  const m = /\b(?:examples?|instances?|kinds?|types?)\s+of\s+([a-z]+(?:[ -][a-z]+){0,3})/i.exec(statement);
  if (!m) return null;
  const text = `example of ${m[1]}`;
  return { category: categoryOf(text.split(' ').slice(0, 3).join(' ')), contraries: contrariesOf(categoryWords(text)) };
}

function scorePerItem(rubricItem: PerItem, answer: Answer, fromReference: boolean, elsewhere: string[], statement: string): Outcome {
  const fromQuestion = !rubricItem.category && !rubricItem.options.length && onlyCounts(criterionWords(rubricItem.topic)) ? categoryFromQuestion(statement) : null;
  const c = fromQuestion ? { ...rubricItem, ...fromQuestion } : rubricItem;
  const judgeOption = (o: Concept, a: Answer): number => {
    const j = judgeConcept(o.variants, o.rejects, a, fromReference);
    return j.fraction === 1 && otherModifier(o.text, j.best, a) ? 0 : j.fraction;
  };
  const { units, counted, refused } = countItems(c, answer, judgeOption, elsewhere);
  const got = Math.min(c.points, units * c.per);
  const capItems = fmt(c.points / c.per);
  const list = counted.length ? `: ${counted.slice(0, 8).map((s) => `"${s}"`).join(', ')}` : '';
  const kind = c.category ? ` (each a kind of ${c.category})` : '';
  const notCounted = refused.length ? `; not counted: ${refused.slice(0, 4).join('; ')}` : '';
  const body = `${c.text} — ${fmt(units)} distinct item(s) counted${kind}${list}, ${fmt(c.per)} each, at most ${capItems}${notCounted} (${fmt(got)}/${fmt(c.points)})`;
  // Counting items is not checkable: an option is met by half of its words, a free item by
  // "adding words" (tuned on held-out sets A and B, where named options were miscounted too).
  const sure = false;
  const evidence = counted.slice(0, 8).join('; ');
  if (got >= c.points) return { got, line: `Met: ${body}.`, met: [c.text], missed: [], evidence, sure };
  if (got > 0) return { got, line: `Partly met: ${body}.`, met: [`${c.text} (${fmt(units)} of ${capItems})`], missed: [], evidence, sure };
  return { got, line: `Missed: ${body}.`, met: [], missed: [c.text], evidence: '', sure };
}

function wordings(c: Criterion): string[] {
  if (c.kind === 'concept') return [...c.variants, ...c.rejects];
  if (c.kind === 'levels') return [...c.levels.flatMap((l) => [...l.variants, ...l.rejects]), ...c.guidance.flatMap((g) => g.variants)];
  return [c.topic, ...c.rejects, ...c.options.flatMap((o) => o.variants)];
}

interface Prepared {
  read: ReadRubric;
  wordingCount: number;
  rubricWords: number;
}

/** Rubrics read recently: a set's rubric is graded once per student, and reading it costs more than most grades. */
const PREPARED = new Map<string, Prepared>();
const PREPARED_MAX = 128;
/** Longer rubrics are read each time: the cache stays a few MB whatever is sent. */
const PREPARED_MAX_CHARS = 4000;

/** A rubric as read, from the cache of rubrics read recently. */
export function readPrepared(rubric: string, fromReference: boolean): ReadRubric {
  return prepare(rubric, fromReference).read;
}

function prepare(rubric: string, fromReference: boolean): Prepared {
  const key = `${fromReference ? 'r' : 's'}${rubric}`;
  const hit = PREPARED.get(key);
  if (hit) {
    PREPARED.delete(key);
    PREPARED.set(key, hit);
    return hit;
  }
  const read = fromReference ? readReference(rubric) : readRubric(rubric);
  const wordingCount = read.criteria.reduce((n, c) => n + wordings(c).length, 0);
  const rubricWords = wordingCount > MAX_WORDINGS ? 0 : new Set(read.criteria.flatMap((c) => wordings(c).flatMap(tokenize))).size;
  const prepared = { read, wordingCount, rubricWords };
  if (rubric.length > PREPARED_MAX_CHARS) return prepared;
  if (PREPARED.size >= PREPARED_MAX) PREPARED.delete(PREPARED.keys().next().value!);
  PREPARED.set(key, prepared);
  return prepared;
}

/** "(i)", "(b)", "ii)" or "b." at a line's start: a part's label. */
const PART_LABEL = /(?:^|\s)\(([ivx]{1,4}|[a-h])\)\s+|(?:^|\n)\s*([ivx]{1,4}|[a-h])[.)]\s+/gi;

function partLabels(text: string): { label: string; start: number; end: number }[] {
  return [...text.matchAll(PART_LABEL)].map((m) => ({ label: (m[1] ?? m[2])!.toLowerCase(), start: m.index, end: m.index + m[0].length }));
}

/**
 * The answer's part for each criterion when the rubric labels its criteria "(i) … (ii) …" (as
 * many labels as criteria, in order, each once) and the answer uses those labels: criterion k is
 * judged on the text after label k only ("(i) adjective (ii) adverb" says nothing of part (iii)).
 * Tuned on D.
 */
function partAnswers(rubric: string, answer: string, criteria: number): string[] | null {
  const labels = partLabels(rubric).map((l) => l.label);
  if (labels.length < 2 || labels.length !== criteria || new Set(labels).size !== labels.length) return null;
  const given = partLabels(answer).filter((l) => labels.includes(l.label));
  if (given.length < 2 || new Set(given.map((g) => g.label)).size !== given.length) return null;
  const text = new Map(given.map((g, k) => [g.label, answer.slice(g.end, given[k + 1]?.start ?? answer.length).trim()]));
  return labels.map((l) => text.get(l) ?? '');
}

/** Content words of the answer (not the question's) that no met criterion used. */
function unreadWords(answer: Answer, used: string[]): string[] {
  const said = new Set(used.flatMap((u) => [...forms(u)]));
  return answer.words
    .map((w) => w.word)
    .filter((w) => /^\p{L}{3,}$/u.test(w) && !STOPWORDS.has(w) && !NEGATIONS.has(w))
    .filter((w) => ![...forms(w)].some((f) => answer.question.has(f) || said.has(f)));
}

export function gradeRubric(userAnswer: string, rubric: string, fromReference: boolean, statement = '', reference = ''): GradeResult {
  const field = fromReference ? 'correct_answer' : 'scoring_details';
  const { read, wordingCount, rubricWords } = prepare(rubric, fromReference);
  if (read.criteria.length === 0) {
    throw new GradingInputError(
      ['body', 'problem', field],
      fromReference
        ? 'The reference answer has no words to compare an answer with.'
        : `The rubric has no criterion to grade against (a heading or a total alone is not one). Write ${LAYOUTS}.`,
    );
  }
  if (wordingCount > MAX_WORDINGS) {
    throw new GradingInputError(
      ['body', 'problem', field],
      `The rubric reads as ${wordingCount} criteria and alternatives; at most ${MAX_WORDINGS} can be compared with an answer. Shorten it to the points that earn marks.`,
    );
  }
  const answer = readAnswer(userAnswer, questionWords(statement));
  answer.statement = statement;
  const facts = calcFacts(userAnswer, reference, statement);
  answer.calc = facts && { ...facts, reference };
  const whole = answer;
  if (rubricWords * answer.words.length > MAX_WORD_PAIRS) {
    throw new GradingInputError(
      ['body', 'problem', field],
      `The rubric (${rubricWords} distinct words) and the answer (${answer.words.length}) are too large to grade together: their product may be at most ${MAX_WORD_PAIRS.toLocaleString('en-US')}. Shorten the rubric to the concepts that earn points.`,
    );
  }
  // Each criterion's own words: a part of the answer that holds another's is about that one.
  const claimWords = read.criteria.map((c) => new Set(wordings(c).flatMap((w) => criterionWords(w)).filter((w) => ![...forms(w)].some((f) => answer.question.has(f)))));
  // "(i) … (ii) …" in both the rubric and the answer: each criterion is judged on the answer's part of its label.
  const parts = partAnswers(rubric, userAnswer, read.criteria.length);
  const outcomes = read.criteria.map((c, i) => {
    const answer = parts ? Object.assign(readAnswer(parts[i] ?? '', whole.question), { statement, calc: whole.calc }) : whole;
    answer.otherClaims = new Set(claimWords.flatMap((ws, k) => (k === i ? [] : [...ws].filter((w) => !claimWords[i]!.has(w)))));
    if (c.kind === 'concept') return scoreConcept(c, answer, fromReference);
    if (c.kind === 'levels') return scoreLevels(c, answer, fromReference, facts);
    const elsewhere = read.criteria.filter((o) => o !== c).flatMap((o) => (o.kind === 'concept' ? o.variants : o.kind === 'levels' ? o.levels.flatMap((l) => l.variants) : o.options.flatMap((x) => x.variants)));
    return scorePerItem(c, answer, fromReference, elsewhere, statement);
  });
  const max = Math.round(read.criteria.reduce((s, c) => s + c.points, 0) * 100) / 100;
  const score = Math.round(outcomes.reduce((s, o) => s + o.got, 0) * 100) / 100;
  const notes = read.notes.length ? `${read.notes.join(' ')} ` : '';
  // A total the rubric states is its max_score; when its points add up to something else, the
  // marks are scaled to it and a teacher should look (which of the two did the teacher mean?).
  // A rubric that writes no total takes the one its question writes ("… [3 marks]"), as a cap (tuned on H).
  const asked = read.statedTotal == null && !fromReference ? questionTotal(statement) : null;
  const stated = read.statedTotal ?? asked;
  const total = stated !== null && stated > 0 && Math.abs(stated - max) > 0.001 ? stated : max;
  const capped = read.capTotal || (asked !== null && asked < max);
  const scaledScore = total === max ? score : capped ? Math.min(score, total) : Math.round(((score * total) / max) * 100) / 100;
  // A criterion missed with none of its words is a sure miss only when the answer says nothing the
  // grader did not read as another criterion's: words left over may be that criterion in other words.
  const unread = outcomes.some((o) => o.blank) ? unreadWords(answer, outcomes.flatMap((o) => (o.got > 0 ? (o.used ?? []) : []))) : [];
  // Words in a script the grader does not read (Greek, Hebrew, Cyrillic …) are words it could not check (tuned on I).
  const otherScript = /(?![\p{Script=Latin}])\p{L}/u.test(answer.text);
  const sure = outcomes.every((o) => o.sure === true) && unread.length <= CONFIDENCE.unreadWords && read.totalRead !== false && total === max && !otherScript;
  return {
    score: scaledScore,
    max_score: total,
    method: 'rubric',
    met: outcomes.flatMap((o) => o.met),
    missed: outcomes.flatMap((o) => o.missed),
    explanation: `${fmt(scaledScore)} of ${fmt(total)} point(s). ${capped ? `The criteria's marks add up to ${fmt(max)}, capped at ${fmt(total)}. ` : total !== max ? `The rubric states ${fmt(total)} marks but its criteria add up to ${fmt(max)}: the marks are scaled to ${fmt(total)}; please review. ` : ''}${notes}${outcomes.map((o) => o.line).join(' ')}`,
    confidence: sure ? 'high' : 'low',
    needs_review: !sure,
    criteria: read.criteria.map((c, i) => ({ criterion: c.text, points: c.points, awarded: outcomes[i]!.got, evidence: outcomes[i]!.got > 0 ? (outcomes[i]!.evidence ?? '') : '' })),
  };
}
