import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { echoesQuestion, numberedTerm, numeralsOf } from '../../server/practice/grading/short-answer.ts';
import { listedTotal, writtenTotal } from '../../server/practice/grading/rubric/totals.ts';
import { expectVerdict, gradeFrq as ask, type VerdictCase } from './helpers.ts';

const rubric = (scheme: string) => gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain.', user_answer: 'something unrelated about cheese', scoring_details: scheme });

/**
 * Classes of confident wrong marks found on set E (rules.ts: "reordered list", "integer factors",
 * "unasked rounding", "numbered terms", "modifier left out", "question echoed"); cases of their own.
 */
describe('math: confidence where only the value was checked', () => {
  it.each<VerdictCase>([
    // Values listed in another order than the reference's, no variable named: the order may matter.
    ['Split 90 sweets between Ann and Ben in the ratio 1:2.', '30, 60', '30, 60', true, 'high'],
    ['Split 90 sweets between Ann and Ben in the ratio 1:2.', '30, 60', '60, 30', true, 'low'],
    // Roots named by their variable stay sure in any order.
    ['Solve x^2 - 5x + 6 = 0.', 'x = 2, x = 3', 'x = 3, x = 2', true, 'high'],
    // A reference written as whole-number factors: the same factors in any order are sure.
    ['Write 36 as a product of prime factors in index form.', '2^2 × 3^2', '3² × 2²', true, 'high'],
    ['Write 36 as a product of prime factors in index form.', '2^2 × 3^2', '2 × 2 × 3 × 3', false, 'high'],
    ['Write 36 as a product of prime factors in index form.', '2^2 × 3^2', '4 × 9', false, 'high'],
    ['Write 90 as a product of prime factors.', '2 × 3 × 3 × 5', '5 × 3 × 2 × 3', true, 'high'],
    ['Write 90 as a product of prime factors.', '2 × 3 × 3 × 5', '6 × 15', false, 'high'],
    ['Write 90 as a product of prime factors.', '2 × 3 × 3 × 5', '2 × 3² × 5', true, 'low'],
    // Standard form is no such product: read by the demanded-forms rules as before.
    ['Work out (2 × 10^3) × (3 × 10^4). Give your answer in standard form.', '6 × 10^7', '6 × 10^7', true, 'high'],
    // π to be kept is an exact form demanded; a rounding of an exact reference nobody asked for is low.
    ['Find the area of a circle of radius 3 cm. Keep π in your answer.', '9π cm²', '28.27 cm²', false, 'high'],
    ['Find the area of a circle of radius 3 cm.', '9π cm²', '28.27 cm²', true, 'low'],
    // A fraction met by a rounding stays sure (33.3% for 1/3 is what a teacher accepts).
    ['A fair die is rolled. What is the probability of a 5 or a 6?', '1/3', '0.333', true, 'high'],
    // Points as thousands separators: two or more groups of three, or before a decimal comma.
    ['Multiply 1250 by 2000.', '2,500,000', '2.500.000', true, 'high'],
    ['Add 1000 to 3456.25.', '4456.25', '4.456,25', true, 'high'],
    ['Add 1000 to 3456.25.', '4456.25', '4.456', false, 'high'],
    // Places count in the reference's own unit, not the base unit.
    ['Find the volume of a cone to 1 decimal place.', '37.7 cm³', '37.7 cm³', true, 'high'],
    ['Find the volume of a cone to 1 decimal place.', '37.7 cm³', '37.70 cm³', false, 'high'],
    // A reference without the precision asked (the rounding is of the inputs): matched as written, low; another value refused.
    ['Estimate 48.7 × 9.8 by rounding each number to 1 significant figure.', '500', '50 × 10 = 500', true, 'high'],
    ['Estimate 4.87 × 98.1 by rounding each number to 1 significant figure.', '500', '500', true, 'high'],
    ['Estimate 3.9 × 61 by rounding each number to 1 significant figure.', '240', '240', true, 'low'],
    ['Estimate 3.9 × 61 by rounding each number to 1 significant figure.', '240', '237.9', false, 'high'],
  ])('%s | %s | %s', async (question, reference, answer, accepted, confidence) => {
    const g = await ask(question, reference, answer);
    expectVerdict(g, accepted, confidence);
  });
});

describe('short answers: numbered terms, a modifier left out, the question echoed', () => {
  it.each<VerdictCase>([
    ['Which kind of diabetes is usually found in childhood?', 'Type 1 diabetes', 'type 1', true, 'high'],
    ['Which kind of diabetes is usually found in childhood?', 'Type 1 diabetes', 'Type I', true, 'low'],
    ['Which kind of diabetes is usually found in childhood?', 'Type 1 diabetes', 'type 2', false, 'high'],
    ['Which kind of diabetes is usually found in childhood?', 'Type 1 diabetes', 'type one or type two', false, 'high'],
    ['Which law of motion says every action has an equal and opposite reaction?', "Newton's third law", 'the second law', false, 'high'],
    // The reference's modifier is a word of the question ("warm"): an answer without it may be a wider or neighbouring term.
    ['What is the boundary called where warm air slides up over retreating cooler air?', 'warm front', 'warm front', true, 'high'],
    ['What is the boundary called where warm air slides up over retreating cooler air?', 'warm front', 'a front', true, 'low'],
  ])('%s | %s | %s', async (question, reference, answer, accepted, confidence) => {
    const g = await ask(question, reference, answer);
    expectVerdict(g, accepted, confidence);
  });

  it('reads numerals as digits, words, ordinals and roman numerals after a word, never the pronoun I', () => {
    expect([...numeralsOf('Type II error')]).toEqual([2]);
    expect([...numeralsOf('I think it is phase 3')]).toEqual([3]);
    expect([...numeralsOf('World War I')]).toEqual([1]);
    expect([...numeralsOf('the second or the 4th')]).toEqual([2, 4]);
    expect(numberedTerm('the Gulf War', 'World War I', 'Which war began in 1914?')).toBe('missing');
    expect(numberedTerm('anything', 'photosynthesis', 'What?')).toBeNull();
    // A number the question says may be left out.
    expect(numberedTerm('the pillars', 'the Five Pillars', 'What are the five duties of Islam called?')).toBeNull();
  });

  it('tells an answer built from the question words', () => {
    expect(echoesQuestion('a rain cloud', 'What kind of cloud brings long rainstorms?')).toBe(true);
    expect(echoesQuestion('nimbostratus', 'What kind of cloud brings long rainstorms?')).toBe(false);
  });
});

describe('rubric totals: a written total wins, else the marks the criteria carry', () => {
  it.each<[string, string, number]>([
    ['a total in a sentence', 'Method 40%, answer 60%, total 5 marks.\nMethod: shows the working\nAnswer: 12 kg', 5],
    ['a total in brackets after key-value weights', 'Weights: cause=2, effect=2 (total 4)\ncause: names the cause\neffect: names the effect', 4],
    ['marks "in all", in words', 'Check for:\n- names the organ\n- states what it does\nSix points in all.', 6],
    ['a deduction scheme starts from its maximum', 'Begin at 5 marks; take off one mark for each missing label, down to 0.', 5],
    ['a German total', 'Bewertung (insgesamt 4 Punkte):\n• nennt die Ursache (2 P.)\n• nennt die Folge (2 P.)', 4],
    ['a Spanish heading with its points', 'Rúbrica (5 puntos):\n- explica la causa (3 puntos)\n- da un ejemplo (2 puntos)', 5],
    ['a lone "Marks: N" line under unmarked bullets', '* names the treaty\n* gives its year\nMarks: 2', 2],
    ['marks listed on one line for lettered criteria', '(a) names the gas\n(b) describes the test\n(c) gives the result\nAllocation: 2, 2, 1', 5],
    ['marks in an HTML list', '<ol>\n<li>Names the gas (1)</li>\n<li>Explains the test (2)</li>\n</ol>', 3],
    ['marks in an XML attribute, with a total element', '<point marks="2">explains why the ice melts</point>\n<point marks="1">gives an example</point>\n<total>3</total>', 3],
    ['a comma column with a header and a total row', 'item,marks\nnames the organ,1\nstates its job,2\ntotal,3', 3],
    ['marks in braces', '{2} explains the cause of the flood\n{1} names the effect on farms', 3],
    ['an identify-and-explain pair "(1+1)"', 'Cause identified and explained (1+1)\nEffect identified (1)', 3],
    ['a parent mark that is the sum of its indented parts', '1. Causes (2)\n   a) names one cause (1)\n   b) names another cause (1)\n2. Effects (3)\n   a) on farms (2)\n   b) on towns (1)', 5],
    ['band labels with ranges of marks', 'B3 (5–6): evaluates both sides with examples\nB2 (3–4): explains one side\nB1 (1–2): simple statements\n0: nothing creditable', 6],
  ])('%s', async (_name, scheme, max) => {
    expect((await rubric(scheme)).max_score).toBe(max);
  });

  it('a cap is no total, and a criterion that mentions a total figure is not one', () => {
    expect(writtenTotal('- lighter (1)\n- cheaper (1)\n- stronger (1)\n[max 2]')).toBeNull();
    expect(writtenTotal('Works out the total cost of £20,000 (1)')).toBeNull();
    expect(writtenTotal('points: 1\npoints: 2')).toBeNull();
    expect(listedTotal('Marks: 1, 1, 2')).toBe(4);
  });
});
