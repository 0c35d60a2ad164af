import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { otherAcronym } from '../../server/practice/grading/rubric/concept.ts';
import { signChanged } from '../../server/practice/grading/short-answer.ts';
import { expectVerdict, gradeFrq as ask, type VerdictCase } from './helpers.ts';

/**
 * Classes of wrong totals, confident wrong marks and needless reviews found on set I (rules.ts:
 * "plain marks", "totals not of a quantity", "marks per item are no total", "units of marks before
 * the number", "labelled enumerations", "another acronym" …); cases of their own, none of the set's wording.
 */
describe('rubric totals: plain marks (JSON lines, symbols, tab columns, mark codes, arrows, sums)', () => {
  const grade = (scheme: string, answer = 'something unrelated about cheese') => gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain.', user_answer: answer, scoring_details: scheme });
  it.each<[string, string, number]>([
    ['JSON lines', '{"text": "names the cause", "points": 2}\n{"text": "names the effect", "points": 1}', 3],
    ['pictographs before level marks', '✅ 2 marks: cause and effect\n⚠️ 1 mark: cause or effect\n❌ 0 marks: neither', 2],
    ['a symbol key with its cap as symbols', '♦♦ names the cause of the flood\n♦ names the effect on the farms\n♦ names the date\nEach ♦ is one mark (max ♦♦♦)', 3],
    ['a symbol key with no cap', '● names the cause\n●● explains the effect\n● = 1 mark', 3],
    ['a tab column on the right', 'a)\tnames the cause\t2\nb)\tnames the effect\t1', 3],
    ['a tab column with a header and a total row', 'Point\tMarks\nnames the cause\t2\nnames the effect\t2\nTotal\t4', 4],
    ['a tab column on the left', '1\tnames the cause\n2\texplains the effect\n1\tgives the date', 4],
    ['mark codes with a key', 'Uses v = u + at — M1\nv = 14 m/s — A1\nStates the direction — B1\nKey: M = method, A = accuracy, B = independent.', 3],
    ['arrow marks falling to 0 are levels', 'The cause and the effect → 3 marks.\nThe cause only → 1 mark.\nNothing relevant → 0.', 3],
    ['labelled parts summed', 'Points: (i) 1 + (ii) 2 + (iii) 1 = 4\n(i) names the cause (1)\n(ii) explains the effect (1); gives an example (1)\n(iii) gives the date (1)', 4],
  ])('%s', (_, scheme, total) => expect(gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain.', user_answer: 'something unrelated about cheese', scoring_details: scheme }).max_score).toBe(total));

  it('scores symbol-led lines by their symbols, up to the cap', () => {
    const g = grade('♦♦ names the cause of the flood\n♦ names the effect on the farms\n♦ names the date\nEach ♦ is one mark (max ♦♦♦)', 'The cause of the flood was rain, the effect on the farms was ruin, the date was 1953.');
    expect(g.max_score).toBe(3);
    expect(g.score).toBe(3);
  });

  it('reads nothing as marks where the lines carry none: no total, so a review', () => {
    const g = grade('{"note": "names the cause"}\n{"note": "names the effect"}');
    expect(g.needs_review).toBe(true);
  });

  it('keeps an arrow mark that does not fall to 0 as the line\'s own mark', () => {
    expect(grade('names the cause → 1 mark\nnames the effect → 2 marks').max_score).toBe(3);
  });
});

describe('rubric totals: totals not of a quantity, marks per item, units before the number, labelled enumerations', () => {
  const max = (scheme: string) => gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain.', user_answer: 'something unrelated about cheese', scoring_details: scheme }).max_score;
  it.each<[string, string, number]>([
    // "Total = 50π m²" is what a criterion's answer is, not the marks: the marks written per line win.
    ['a total that is a quantity with π', 'Area of the circle = π × 5² (1)\nTotal = 50π m² (1)\nUnits given (1)', 3],
    ['a total that is a quantity with a power', 'Side = 12 cm (1)\nTotal = 144 cm² (1)', 2],
    // What each point earns is a mark per item, capped: not the rubric's total.
    ['each point earns one mark, up to a maximum', 'Each valid reason earns one mark, up to a maximum of two. Reasons may include:\n- cheaper\n- faster\n- safer', 2],
    // A unit of marks in any language, written before its number.
    ['a unit before the number', 'Nilai (3 angka)\n1. names the cause — angka 1\n2. names the effect — angka 2', 3],
    ['an abbreviated unit with an apostrophe', 'Értékelés (2 p)\n- names the cause (1 p\')\n- names the effect (1 p\')', 2],
    // "[a] … [b] … — a, b and c one mark each; …": the labels' marks, the remark a note.
    ['bracketed labels named again before their marks', 'Key points: [a] the cause [b] the effect [c] the date — a, b and c one mark each; spelling is not penalised.', 3],
    ['round labels with a note after the marks', '(i) the cause (ii) the effect — 1 mark each; ignore extra detail.', 2],
  ])('%s', (_, scheme, total) => expect(max(scheme)).toBe(total));

  it('still reads a written total in words and digits', () => {
    expect(max('Total: 5 marks\n- the cause (2)\n- the effect (3)')).toBe(5);
    expect(max('This is marked out of 6.\n5-6: full\n3-4: partial\n1-2: little\n0: nothing')).toBe(6);
  });
});

describe('rubric criteria: another acronym names another thing', () => {
  it.each<[string, string, boolean]>([
    ['reads the IP address of the packet', 'it reads the MAC address of the frame', true],
    ['copies the gene with DNA polymerase', 'RNA polymerase copies it', true],
    ['reads the IP address of the packet', 'it reads the IP address, not the MAC address', false],
    ['connects with a USB cable', 'a USB cable connects them', false],
  ])('%s / %s', (criterion, answer, other) => expect(otherAcronym(criterion, answer) !== null).toBe(other));

  it('does not credit a criterion met only through another acronym', () => {
    const g = gradeAnswer({ problem_type: 'frq', problem_statement: 'How does a router forward data?', user_answer: 'It reads the MAC address and floods every port.', scoring_details: '- reads the destination IP address in the header (1)\n- looks it up in a routing table (1)' });
    expect(g.criteria![0]!.awarded).toBe(0);
  });
});

describe('math: bounds included, exact forms with units, surd form', () => {
  const region = 'Write the inequalities that describe the rectangle 0 ≤ x ≤ 5, 1 ≤ y ≤ 3 with its edges, as four inequalities.';
  const sphere = 'Find the surface area of a sphere of radius 5 m. Leave your answer in terms of π.';
  const quad = 'Solve x² − 2x − 11 = 0. Give your answers in surd form.';
  it.each<VerdictCase>([
    // A bound included or not is part of a comparison written with signs.
    [region, 'x ≥ 0, x ≤ 5, y ≥ 1, y ≤ 3', 'x >= 0, x <= 5, y >= 1, y <= 3', true, 'high'],
    [region, 'x ≥ 0, x ≤ 5, y ≥ 1, y ≤ 3', 'x > 0, x < 5, y > 1, y < 3', false, 'high'],
    [region, 'x ≥ 0, x ≤ 5, y ≥ 1, y ≤ 3', 'x ≥ 0, x ≤ 5, y ≥ 1, y < 3', false, 'high'],
    // An exact form asked: a decimal is a rounding, with a unit as without.
    [sphere, '100π m²', '314.2 m²', false, 'high'],
    [sphere, '100π m²', '314.2', false, 'high'],
    [sphere, '100π m²', '100π m²', true, 'high'],
    // Surd form asked: a root with a square factor left under it is refused, low; simplified, sure.
    [quad, 'x = 1 ± 2√3', 'x = (2 ± √48)/2', false, 'low'],
    [quad, 'x = 1 ± 2√3', 'x = 1 + 2√3, x = 1 − 2√3', true, 'high'],
    // "exact" alone does not ask the roots simplified.
    ['Solve x² = 12, giving exact answers.', 'x = ±2√3', 'x = ±√12', true, 'high'],
  ])('%s | %s | %s', (q, ref, answer, accepted, confidence) => expectVerdict(ask(q, ref, answer), accepted, confidence));
});

describe('short answers: signs of numbers, another name in a rarer sense of the answer\'s word', () => {
  it.each<[string, string, string | null]>([
    ['moved by (3, 0)', 'moved by (−3, 0)', '3'],
    ['−4 degrees', '4 degrees', '−4'],
    ['moved by (−3, 0)', 'moved by (−3, 0)', null],
    ['the years 1914–1918', 'the years 1914-1918', null],
  ])('%s for %s', (answer, reference, flipped) => {
    const got = signChanged(answer, reference);
    if (flipped === null) expect(got).toBeNull();
    else expect(got).toMatch(new RegExp(`^${flipped}`));
  });

  it.each<VerdictCase>([
    ['The graph of y = p(x) becomes y = p(x − 4). Describe the transformation.', 'translation by the vector (4, 0)', 'translation by (−4, 0)', false, 'high'],
    ['The graph of y = p(x) becomes y = p(x − 4). Describe the transformation.', 'translation by the vector (4, 0)', 'a translation by (4, 0)', true, 'high'],
    // "packaging" names publicity only in a later sense of its own (first: the business of packing).
    ['Which element of the marketing mix covers advertising?', 'promotion', 'packaging', true, 'low'],
    // The answer's first sense is the reference's: still sure.
    ['What is the largest artery of the body?', 'aorta', 'the aorta', true, 'high'],
  ])('%s | %s | %s', (q, ref, answer, accepted, confidence) => expectVerdict(ask(q, ref, answer), accepted, confidence));
});

describe('rubric confidence: working written another way, answers in another script', () => {
  const grade = (scheme: string, answer: string) => gradeAnswer({ problem_type: 'frq', problem_statement: 'Find the area of the shape.', user_answer: answer, scoring_details: scheme });
  it('does not call a step of working surely missed when the answer writes numbers', () => {
    const g = grade('Rectangle = 6 × 4 (1)\nTriangle = ½ × 6 × 3 (1)\nTotal = 33 cm² (1)', '24 + 9 = 33');
    expect(g.confidence).toBe('low');
    expect(g.needs_review).toBe(true);
  });
  it('still misses surely a step of working when the answer writes no number', () => {
    const g = gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain the flood.', user_answer: 'The rain caused the flood.', scoring_details: '- the rain caused the flood (1)\n- the wall is 6 × 4 (1)' });
    expect(g.score).toBe(1);
    expect(g.confidence).toBe('high');
  });
  it('asks for review when the answer is written in a script the grader does not read', () => {
    const scheme = '- the rain caused the flood (1)\n- the flood ruined the farms (1)';
    const ask = (answer: string) => gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain the flood.', user_answer: answer, scoring_details: scheme });
    expect(ask('The rain caused the flood, and the flood ruined the farms.').needs_review).toBe(false);
    expect(ask('The rain caused the flood, and the flood ruined the farms. Дождь.').needs_review).toBe(true);
  });
});

describe('functions of one variable, acronyms with points or spelt out', () => {
  const trig = 'Simplify cos x × tan x.';
  it.each<VerdictCase>([
    // A function of one variable is mathematics: every writing of it is the CAS's, sure either way.
    [trig, 'sin x', 'sin(x)', true, 'high'],
    [trig, 'sin x', 'cos x', false, 'high'],
    ['Simplify sin φ ÷ tan φ.', 'cos φ', 'cos(φ)', true, 'high'],
    // An acronym with points between its letters is the acronym; spelt out in words, accepted low.
    ['Which UK body enforces competition law?', 'CMA', 'C.M.A.', true, 'high'],
    ['Which congruence test applies when all three sides match?', 'SSS', 'side-side-side', true, 'low'],
    ['Which congruence test applies when all three sides match?', 'SSS', 'side angle side', false, 'low'],
  ])('%s | %s | %s', (q, ref, answer, accepted, confidence) => expectVerdict(ask(q, ref, answer), accepted, confidence));
});

describe('math: a bound on a function value', () => {
  const range = 'State the range of p(t) = t² − 1 for all real t.';
  it.each<VerdictCase>([
    // "p(t) ≥ −1" is an inequality in the function's value: any name of the output, or the interval, is the same set.
    [range, 'p(t) ≥ −1', 'p(t) >= -1', true, 'high'],
    [range, 'p(t) ≥ −1', 'y ≥ −1', true, 'high'],
    [range, 'p(t) ≥ −1', '[−1, ∞)', true, 'high'],
    [range, 'p(t) ≥ −1', 'p(t) > −1', false, 'high'],
    // The same bound on the argument describes the input, not the range.
    [range, 'p(t) ≥ −1', 't ≥ −1', false, 'high'],
  ])('%s | %s | %s', (q, ref, answer, accepted, confidence) => expectVerdict(ask(q, ref, answer), accepted, confidence));
});
