import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { expectVerdict, gradeFrq as ask, type VerdictCase } from './helpers.ts';

/**
 * Classes of confident wrong marks, needless reviews and wrong totals found on set G (rules.ts:
 * "points listed", "coarse rounding", "roots of a solved equation", "units of the axes", "the
 * question's variables", "equalities for an inequality", "times before ratios", "places through a
 * percentage", "prefix changed", "wide slips", "a kind is no sibling", "wider kind", "antonym
 * swapped", "form described", "action swapped", "initialled name", "numbers in a reason", "marks
 * in other forms", "dash joins"); cases of their own, none of the set's wording.
 */
describe('math: lists of points, roundings, roots, units of the axes', () => {
  it.each<VerdictCase>([
    // Points listed: a set of ordered pairs, any order; wrong or missing points a sure refusal.
    ['Find where the line y = x meets the circle x² + y² = 8.', '(2, 2) and (−2, −2)', '(-2, -2), (2, 2)', true, 'high'],
    ['Find where the line y = x meets the circle x² + y² = 8.', '(2, 2) and (−2, −2)', 'x = 2, y = 2 and x = -2, y = -2', true, 'high'],
    ['Find where the line y = x meets the circle x² + y² = 8.', '(2, 2) and (−2, −2)', '(2, -2) and (-2, 2)', false, 'high'],
    ['Find where the line y = x meets the circle x² + y² = 8.', '(2, 2) and (−2, −2)', '(2, 2)', false, 'high'],
    ['Find where the line y = x meets the circle x² + y² = 8.', '(2, 2) and (−2, −2)', 'x = 2, x = -2', false, 'high'],
    // A rounding nobody asked for: sure from three significant figures, `low` below.
    ['A spinner has 7 equal sectors, one red. Find the probability of red.', '1/7', '0.143', true, 'high'],
    ['A spinner has 7 equal sectors, one red. Find the probability of red.', '1/7', '0.14', true, 'low'],
    // The roots of an equation the question asks to solve have no order.
    ['Solve x² − x − 6 = 0.', '3, −2', '-2, 3', true, 'high'],
    ['Find the roots of x² − 9 = 0.', '3, −3', '-3, 3', true, 'high'],
    // Square (cubic) units of the axes for an area (a volume) asked without a unit.
    ['Find the area of the triangle with vertices (0, 0), (4, 0) and (0, 3).', '6', '6 square units', true, 'high'],
    ['Find the area of the triangle with vertices (0, 0), (4, 0) and (0, 3).', '6', '6 units²', true, 'high'],
    ['Find the area of the triangle with vertices (0, 0), (4, 0) and (0, 3).', '6', '7 sq units', false, 'high'],
    ['Find the volume of revolution when y = x from x = 0 to x = 3 is rotated about the x-axis.', '9π', '9π cubic units', true, 'high'],
    // An expression in the question's variable is read by the CAS: not the number asked.
    ['Evaluate the integral of 2x from x = 0 to x = 3.', '9', '9x', false, 'high'],
    ['Evaluate the integral of 2x from x = 0 to x = 3.', '9', 'x²', false, 'high'],
    // Equalities where an inequality is asked: the boundary, not the region.
    ['Solve x² − 4 < 0.', '−2 < x < 2', 'x = -2, x = 2', false, 'high'],
    ['Solve x² − 4 < 0.', '−2 < x < 2', '-2 < x < 2', true, 'high'],
    // A time of day in a question about times is a time, not a ratio.
    ['A train leaves at 21:15 and the journey takes 2 hours. At what time does it arrive?', '23:15', '23.15', true, 'high'],
    ['A train leaves at 21:15 and the journey takes 2 hours. At what time does it arrive?', '23:15', '11:15 pm', true, 'high'],
    ['A train leaves at 21:15 and the journey takes 2 hours. At what time does it arrive?', '23:15', '22:15', false, 'high'],
    // The places asked kept through a percentage: refused, `low`; other places a sure refusal.
    ['Find P(Z < 1), giving your answer to 4 decimal places.', '0.8413', '84.13%', false, 'low'],
    ['Find P(Z < 1), giving your answer to 4 decimal places.', '0.8413', '0.84', false, 'high'],
  ])('%s / %s / %s', (q, ref, answer, accepted, confidence) => expectVerdict(ask(q, ref, answer), accepted, confidence));
});

describe('short answers: prefixes, slips, kinds, antonyms, forms', () => {
  it.each<VerdictCase>([
    // A prefix changed, added or dropped makes another word: a sure refusal, never a slip.
    ['What is a dangerously low body temperature called?', 'hypothermia', 'hyperthermia', false, 'high'],
    ['What do we call splitting text into tokens?', 'tokenisation', 'detokenisation', false, 'high'],
    // A slip of two letters may be another word: accepted, `low`; one letter stays sure.
    ['Which river flows through New Orleans?', 'Mississippi', 'Missisippi', true, 'high'],
    ['Which small country lies between Switzerland and Austria?', 'Liechtenstein', 'Lichtenstain', true, 'low'],
    // A kind of the reference is no sure refusal; a wider kind in words of its own is.
    ['Which class of animals has six legs and three body parts?', 'insects', 'beetles', false, 'low'],
    ['Which animal is the largest living cat, with black stripes?', 'tiger', 'a cat', false, 'high'],
    // The reference's words with one swapped for its antonym: another term, a sure refusal.
    ['What kind of feedback amplifies a change, as in childbirth contractions?', 'positive feedback', 'negative feedback', false, 'high'],
    // A form the question describes ("a verb form like …") is no form asked.
    ["What grammatical term describes a verb form like 'has been seen', where the subject receives the action?", 'passive voice', 'passive', true, 'high'],
    // A form "of" a word is still asked: the same word is no answer.
    ["Give a noun form of the verb 'decide'.", 'decision', 'decide', false, 'high'],
    // An action's -ing form swapped in the term's shape may be a paraphrase: no sure refusal.
    ['What is growing plants in nutrient solution without soil called?', 'hydroponic farming', 'hydroponic gardening', false, 'low'],
    // Given names as initials, in order, with the surname: the name, surely; initials left out stay `low`.
    ['Who wrote The Lord of the Rings?', 'John Ronald Reuel Tolkien', 'J. R. R. Tolkien', true, 'high'],
    ['Who wrote The Lord of the Rings?', 'John Ronald Reuel Tolkien', 'JRR Tolkien', true, 'high'],
    ['Who wrote The Lord of the Rings?', 'John Ronald Reuel Tolkien', 'J. R. Tolkien', true, 'low'],
    // Numbers in a reason after the answer are the reason's.
    ['Which pack of pens is the better buy: 10 pens for £2 or 25 pens for £4.50?', 'the 25-pen pack', '25-pen pack because it is 18p per pen', true, 'low'],
  ])('%s / %s / %s', (q, ref, answer, accepted, confidence) => expectVerdict(ask(q, ref, answer), accepted, confidence));
});

describe('rubric totals: marks in other forms', () => {
  const grade = (scheme: string, answer = 'something unrelated about cheese') => gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain.', user_answer: answer, scoring_details: scheme });
  it.each<[string, string, number]>([
    ['a lone (N) last line', 'Names the capital city\nNames the longest river\nNames the highest mountain\n(2)', 2],
    ['marks after a last colon', 'Names the cause of the flood : 2\nNames the effect on farms : 1', 3],
    ['marks as fractions of a total, before', '2/5 for: names the cause of the flood\n3/5 for: explains the effect on farms', 5],
    ['marks as fractions of a total, after', 'Names the cause of the flood — 1/3\nExplains the effect on farms — 2/3', 3],
    ['a unit of marks in another language', 'Arviointi (3 pistettä)\n- nimeää syyn (1 pistettä)\n- nimeää seurauksen (1 pistettä)\n- nimeää vuoden (1 pistettä)', 3],
    ['a unit abbreviated on the lines', 'Hodnocení (2 body)\n– uvede příčinu – 1 bod\n– uvede následek – 1 bod', 2],
    ['notes without a mark in a marked list', '- names the cause — 1 mark\n- names the effect — 1 mark\n- names the year — 1 mark\n- students often forget the year', 3],
    ['headings over indented marked lines', 'Causes\n  1. names heavy rain (1)\n  2. names blocked drains (1)\nEffects\n  3. names damage to homes (1)', 3],
    ['a marked line over indented unmarked lines', 'Part 1: Causes (2 marks)\n  - names heavy rain\n  - names blocked drains\nPart 2: Effects (1 mark)\n  - names damage to homes', 3],
    ['bands with a range of marks', 'High band (3–4): explains the cause and the effect with an example.\nLow band (1–2): names the cause or the effect.\n0: nothing relevant.', 4],
    ['an abbreviated unit and a cap', 'names the cause 1 mk\nnames the effect 1 mk\nnames the year 1 mk\nAny two: 2 mks', 2],
    ['symbols ending the lines, under a key with a cap', 'names the cause ✓\nnames the effect ✓\nnames the year ✓\n✓ = 1 mark, max 2', 2],
    ['N marks in total, then what each earns', 'A good answer names the river and the sea and says where the delta is. 3 marks in total: 1 for each place named.', 3],
  ])('%s', (_, scheme, total) => expect(grade(scheme).max_score).toBe(total));

  it('a dash between digits joins them as a hyphen does', () => {
    const g = grade('Names the 3–4–5 triangle (1)\nStates the theorem of Pythagoras (1)', 'It is a 3-4-5 triangle.');
    expect(g.score).toBe(1);
  });
});
