import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { expectVerdict, gradeFrq as ask, type VerdictCase } from './helpers.ts';

/**
 * Classes of confident wrong marks and needless reviews found on set H (rules.ts: "labelled
 * values", "values joined by and", "Greek variables", "numbers in an aside"); cases of their own,
 * none of the set's wording.
 */
describe('math: labelled values', () => {
  const rect = 'A rectangle has sides 3 cm and 4 cm. Find its area and its perimeter.';
  const range = 'The median of a data set is 40. Give the values that lie 15 either side of it.';
  const line = 'Find the gradient and the y-intercept of the line 2y = 6x + 8.';
  it.each<VerdictCase>([
    // The same values under the reference's labels, or none, in order: sure.
    [rect, 'area = 12, perimeter = 14', 'area = 12, perimeter = 14', true, 'high'],
    [rect, 'area = 12, perimeter = 14', 'area 12 and perimeter 14', true, 'high'],
    [rect, 'area = 12, perimeter = 14', '12 and 14', true, 'high'],
    // Labels say another order: the labels decide.
    [rect, 'area = 12, perimeter = 14', 'perimeter = 14, area = 12', true, 'high'],
    // An equal value in another writing.
    [line, 'gradient 3, intercept 4', 'gradient 6/2, intercept 4', true, 'high'],
    // Labels by their initials or first letters are the reference's.
    [rect, 'area = 12, perimeter = 14', 'A = 12, P = 14', true, 'high'],
    ['Find the mean and the standard deviation of 1, 3, 5.', 'mean = 3, standard deviation = 1.63', 'sd 1.63, mean 3', true, 'high'],
    // Labels the grader cannot read, or another order with no label: accepted, low.
    [rect, 'area = 12, perimeter = 14', 'size = 12, edge = 14', true, 'low'],
    [rect, 'area = 12, perimeter = 14', '14 and 12', true, 'low'],
    // A value wrong or missing: a sure refusal.
    [rect, 'area = 12, perimeter = 14', 'area = 12, perimeter = 7', false, 'high'],
    [rect, 'area = 12, perimeter = 14', 'perimeter = 14', false, 'high'],
    [rect, 'area = 12, perimeter = 14', 'area = 14, perimeter = 12', false, 'high'],
    [line, 'gradient 3, intercept 4', 'gradient −3, intercept 4', false, 'high'],
    // A point as one of the values.
    ['Find the vertex of y = (x − 1)² + 2 and the value of y where x = 0.', 'vertex (1, 2), y-value 3', 'vertex (1, 2), y-value 3', true, 'high'],
    ['Find the vertex of y = (x − 1)² + 2 and the value of y where x = 0.', 'vertex (1, 2), y-value 3', 'vertex (2, 1), y-value 3', false, 'high'],
    // Comparisons in the reference's direction.
    [range, 'below 25 or above 55', '25 and 55', true, 'high'],
    [range, 'below 25 or above 55', 't < 25 or t > 55', true, 'high'],
    [range, 'below 25 or above 55', 't > 25 or t < 55', false, 'high'],
    [range, 'below 25 or above 55', '55', false, 'high'],
  ])('%s | ref %s | %s', (q, ref, ans, accepted, confidence) => expectVerdict(ask(q, ref, ans), accepted, confidence));

  it('leaves a reference with its labels after the values, and an answer with working, to the other rules', () => {
    // "2 hours 30 minutes": the words after the values are units, not labels.
    expectVerdict(ask('How long is it from 9:00 to 11:30?', '2 hours 30 minutes', '2 hours 30 minutes'), true, 'high');
  });
});

describe('math: values joined by "and", Greek variables', () => {
  const q = 'Find the two numbers whose sum is 9 and whose product is 20.';
  it.each<VerdictCase>([
    [q, '4 and 5', '4, 5', true, 'high'],
    [q, '4 and 5', '4 and 6', false, 'high'],
    ['Solve for θ: (θ − 2)(θ − 7) = 0.', '2 and 7', 'θ = 2 or θ = 7', true, 'high'],
    ['Solve for θ: (θ − 2)(θ − 7) = 0.', '2 and 7', 'θ = 7, θ = 2', true, 'high'],
    ['Solve for θ: (θ − 2)(θ − 7) = 0.', '2 and 7', 'θ = 2', false, 'high'],
  ])('%s | ref %s | %s', (qq, ref, ans, accepted, confidence) => expectVerdict(ask(qq, ref, ans), accepted, confidence));
});

describe('short answers: numbers in an aside', () => {
  it.each<VerdictCase>([
    ['Which planet is closest to the Sun?', 'Mercury', 'Mercury, about 4 AU away', true, 'low'],
    ['Which planet is closest to the Sun?', 'Mercury', 'Mercury', true, 'high'],
    // The question's number, or the reference's in another writing, is no claim.
    ['Which element has atomic number 6?', 'carbon', 'carbon, number 6', true, 'high'],
    ['Which kind of diabetes is autoimmune?', 'type I', 'type 1', true, 'high'],
  ])('%s | ref %s | %s', (q, ref, ans, accepted, confidence) => expectVerdict(ask(q, ref, ans), accepted, confidence));
});

describe('math: superscript letters, arbitrary constants, bases, matrix rows, form letters, base units', () => {
  it.each<VerdictCase>([
    // Superscript letters are an exponent.
    ['Find the derivative of eˣ sin x.', 'eˣ(sin x + cos x)', 'e^x sin x + e^x cos x', true, 'high'],
    ['Find ∫ 3e³ˣ dx.', 'e³ˣ + C', 'e^(3x) + C', true, 'high'],
    ['Find ∫ 3e³ˣ dx.', 'e³ˣ + C', 'e^(3x)', false, 'high'],
    // Arbitrary constants under other letters; a general solution in another arrangement is low.
    ['Solve the differential equation dy/dx = −y.', 'y = Be^(−x)', 'y = Ke^{-x}', true, 'high'],
    ['Solve the differential equation dy/dx = −y.', 'y = Be^(−x)', 'y = Ke^{x}', false, 'high'],
    ['Solve the differential equation dy/dx = −y.', 'y = Be^(−x)', 'ln|y| = −x + k', false, 'low'],
    // A numeral with its base.
    ['Write 13 in binary (base 2).', '1101₂', '1101', true, 'high'],
    ['Write 13 in binary (base 2).', '1101₂', '(1101)_2', true, 'high'],
    ['Write 13 in binary (base 2).', '1101₂', '1101 in base 2', true, 'high'],
    ['Write 13 in binary (base 2).', '1101₂', '1011', false, 'high'],
    ['Write 13 in binary (base 2).', '1101₂', '1101₁₀', false, 'high'],
    ['Convert 21₃ to base 10.', '7', '7₁₀', true, 'high'],
    // Matrix rows in other writings where a matrix is expected.
    ['Give the matrix of an enlargement of scale factor 2 about the origin.', '[[2, 0], [0, 2]]', '((2, 0), (0, 2))', true, 'high'],
    ['Give the matrix of an enlargement of scale factor 2 about the origin.', '[[2, 0], [0, 2]]', '[2 0; 0 2]', true, 'high'],
    ['Give the matrix of an enlargement of scale factor 2 about the origin.', '[[2, 0], [0, 2]]', '(2, 0; 0, 1)', false, 'high'],
    // The letters of the form, a coefficient before the reference's own letter.
    ['Write (1 + 2i)(1 − i) in the form p + qi.', '3 + i', 'p = 3, q = 1', true, 'high'],
    ['Write (1 + 2i)(1 − i) in the form p + qi.', '3 + i', 'p = 1, q = 3', false, 'high'],
    // A vector line in any writing of its vectors: the same line, or another.
    ['Find a vector equation of the line through (2, 0, 1) in the direction of i + j.', 'r = 2i + k + t(i + j)', 'r = (2, 0, 1) + s(1, 1, 0)', true, 'high'],
    ['Find a vector equation of the line through (2, 0, 1) in the direction of i + j.', 'r = 2i + k + t(i + j)', 'r = (3, 1, 1) + μ(2, 2, 0)', true, 'high'],
    ['Find a vector equation of the line through (2, 0, 1) in the direction of i + j.', 'r = 2i + k + t(i + j)', '(x, y, z) = (2 + t, t, 1)', true, 'high'],
    ['Find a vector equation of the line through (2, 0, 1) in the direction of i + j.', 'r = 2i + k + t(i + j)', 'r = (1, 1, 0) + t(2, 0, 1)', false, 'high'],
    // A compound unit in words is the one in symbols; one unit word stays a unit word (pounds are money here).
    ['Find the work done by a 4 N force moving 5 m.', '20 N m', '20 newton metres', true, 'high'],
    ['Find the work done by a 4 N force moving 5 m.', '20 N m', '20 newton seconds', false, 'high'],
    ['A coat costs £40 and is reduced by £15. Find the new price.', '£25', '25 pounds', true, 'high'],
    // Equal in base units, written with another named unit: refused, low.
    ['Find the impulse of a 5 N force acting for 2 s.', '10 N s', '10 kg m/s', false, 'low'],
    ['Find the impulse of a 5 N force acting for 2 s.', '10 N s', '10 N s', true, 'high'],
    ['Find the impulse of a 5 N force acting for 2 s.', '10 N s', '12 kg m/s', false, 'high'],
  ])('%s | ref %s | %s', (q, ref, ans, accepted, confidence) => expectVerdict(ask(q, ref, ans), accepted, confidence));
});

describe('short answers: every term of a list, words joined, first-person stance', () => {
  const colours = 'Name the three primary colours of light.';
  it.each<VerdictCase>([
    // Every term of a listed reference, in any order unless one is asked.
    [colours, 'red, green and blue', 'blue, red, green', true, 'high'],
    [colours, 'red, green and blue', 'red, green & blue', true, 'high'],
    [colours, 'red, green and blue', 'red and blue', false, 'high'],
    // An item in a term's place may be another name of it: low; every term and one more: low.
    [colours, 'red, green and blue', 'red, green, yellow', false, 'low'],
    [colours, 'red, green and blue', 'red, green, blue and yellow', false, 'low'],
    ['List the stages of mitosis in order.', 'prophase, metaphase, anaphase, telophase', 'prophase, metaphase, anaphase, telophase', true, 'high'],
    ['List the stages of mitosis in order.', 'prophase, metaphase, anaphase, telophase', 'metaphase, prophase, anaphase, telophase', false, 'high'],
    // The reference's words joined or hyphenated, letter for letter.
    ['What is the name of the small room aboard a ship where meals are cooked?', 'ship galley', 'shipgalley', true, 'high'],
    ['What do we call a ball hit over the boundary without bouncing, in cricket?', 'six runs', 'sixruns', true, 'high'],
    ['Which Latin phrase describes experiments done in glassware, outside a living body?', 'in vitro', 'in-vitro', true, 'high'],
    // A number is not joined: another number is another term.
    ['Which mission first landed people on the Moon?', 'Apollo 11', 'Apollo-12', false, 'low'],
    // First-person stance is no claim; a name after it still is.
    ['Which gas do plants take in for photosynthesis?', 'carbon dioxide', "I'd say carbon dioxide", true, 'high'],
    ['Which gas do plants take in for photosynthesis?', 'carbon dioxide', "carbon dioxide, if I recall correctly", true, 'high'],
    ['Which gas do plants take in for photosynthesis?', 'carbon dioxide', 'carbon dioxide, I read Priestley', true, 'low'],
    // A thing named in brackets after the answer glosses it: no rival, an unchecked claim.
    ['Which planet is known as the Red Planet?', 'Mars', 'Mars (the fourth planet, after Earth)', true, 'low'],
    ['Which planet is known as the Red Planet?', 'Mars', 'Mars, after Earth', false, 'low'],
  ])('%s | ref %s | %s', (q, ref, ans, accepted, confidence) => expectVerdict(ask(q, ref, ans), accepted, confidence));
});

describe('rubric totals: more written forms, records, columns, levels, prose marks', () => {
  const grade = (scheme: string, statement = 'Explain.') => gradeAnswer({ problem_type: 'frq', problem_statement: statement, user_answer: 'something unrelated about cheese', scoring_details: scheme });
  it.each<[string, string, number]>([
    ['a slash total', 'Total /4\n- names the cause (+1)\n- names the effect (+1)', 4],
    ['points possible', 'names the cause — up to 2\nnames the effect — up to 2\nPossible points: 4', 4],
    ['what the question is worth', 'This task is worth three marks.\nthe cause – one\nthe effect – one\nthe date – one', 3],
    ['a written sum', 'Credit: names the cause (1) + names the effect (2) = 3', 3],
    ['INI records', '[part a]\ntext = names the cause\nmarks = 2\n\n[part b]\ntext = names the effect\nmarks = 1', 3],
    ['a definition list', 'Names the cause of the flood\n: 2 marks\n\nNames the effect on the farms\n: 1 mark', 3],
    ['an HTML table with a header row', '<table>\n<tr><th>What</th><th>Marks</th></tr>\n<tr><td>names the cause</td><td>2</td></tr>\n<tr><td>names the effect</td><td>1</td></tr>\n</table>', 3],
    ['a semicolon column', 'point;marks\nnames the cause;2\nnames the effect;2', 4],
    ['For N marks levels', 'For 2 marks: the cause and the effect.\nFor 1 mark: the cause or the effect.\nFor 0 marks: nothing relevant.', 2],
    ['prose levels of what an answer earns', 'An answer giving the cause and the effect earns 2. One giving either earns 1. Anything else earns 0.', 2],
    ['a unit after a comma', 'Hodnocení (2 body)\n- uvede příčinu, 1 body\n- uvede následek, 1 body', 2],
    ['prose sentences giving marks', 'Award 2 marks if the answer names the cause. Award a further mark if it names the effect. Give the final mark for the date.', 4],
  ])('%s', (_, scheme, total) => expect(grade(scheme).max_score).toBe(total));

  it("takes the question's own [N marks] where the rubric writes none, as a cap", () => {
    const g = gradeAnswer({ problem_type: 'frq', problem_statement: 'Give two differences between rivers and canals. [2 marks]', user_answer: 'Canals are man-made, rivers are natural. Canals have locks. Rivers flow downhill.', scoring_details: '- canals are man-made, rivers natural\n- canals have locks\n- rivers flow downhill, canals are level' });
    expect(g.max_score).toBe(2);
    expect(g.score).toBeLessThanOrEqual(2);
  });
});
