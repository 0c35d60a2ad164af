import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { expectVerdict, gradeFrq as ask, type VerdictCase } from './helpers.ts';

/**
 * Classes of confident wrong marks and needless reviews found on set F (rules.ts: "unknown names",
 * "term shape", "sets in braces", "letters of the form", "order asked", "numeric statement",
 * "unworked root"); cases of their own, none of the set's wording.
 */
describe('short answers: refusals the grader cannot check', () => {
  it.each<VerdictCase>([
    // Two names WordNet knows are two things: a sure refusal.
    ['What is the capital of France?', 'Paris', 'London', false, 'high'],
    ['What is the capital of Japan?', 'Tokyo', 'Kyoto', false, 'high'],
    // A one-word name WordNet does not know may be another name of the reference (endonym, former name): low.
    ['Which city is the capital of Germany?', 'Berlin', 'Berolina', false, 'low'],
    ['Which country has Tbilisi as its capital?', 'Georgia', 'Armenia', false, 'high'],
    // Several words or an acronym stay a sure refusal.
    ['Which protocol gives a computer its IP address on a network?', 'DHCP', 'ARP', false, 'high'],
    // A name in the reference swapped for a common word may be the term's descriptive other name.
    ['What is the triangle of binomial coefficients called?', "Pascal's triangle", 'number triangle', false, 'low'],
    // Two named laws stay a sure refusal; a common word swapped for a common word too.
    ['Which law says that the pressure of a gas is inversely proportional to its volume at constant temperature?', "Boyle's law", "Charles's law", false, 'high'],
    ['What does RAM stand for?', 'random access memory', 'read access memory', false, 'high'],
    // A linking word the reference lacks makes a description, not another term.
    ['What is the recto of a page?', 'the front side', 'the front of the page', false, 'low'],
  ])('%s / %s / %s', (q, ref, answer, accepted, confidence) => expectVerdict(ask(q, ref, answer), accepted, confidence));
});

describe('math: what the CAS can decide surely, and what it cannot', () => {
  it.each<VerdictCase>([
    // Sets in braces: no order, no repeats; letters and numbers as elements are read surely.
    ['P = {1, 3, 5}, Q = {3, 5, 7}. List P ∩ Q.', '{3, 5}', '{5, 3}', true, 'high'],
    ['P = {1, 3, 5}, Q = {3, 5, 7}. List P ∩ Q.', '{3, 5}', '{3, 5, 5}', true, 'high'],
    ['P = {1, 3, 5}, Q = {3, 5, 7}. List P ∩ Q.', '{3, 5}', '{3}', false, 'high'],
    ['P = {x, y}, Q = {y, z}. Write P ∪ Q.', '{x, y, z}', '{z, y, x}', true, 'high'],
    ['P = {x, y}, Q = {y, z}. Write P ∪ Q.', '{x, y, z}', '{x, y}', false, 'high'],
    // The letters of the form the question gives, put into it, checked by the CAS.
    ['Write x² − 4x + 1 in the form (x − p)² + q.', '(x − 2)² − 3', 'p = 2, q = −3', true, 'high'],
    ['Write x² − 4x + 1 in the form (x − p)² + q.', '(x − 2)² − 3', 'p = −2, q = −3', false, 'high'],
    // An order asked: another order is a sure refusal; not asked, it stays low (rule "reordered list").
    ['Write 1/2, 0.4, 3/5 in ascending order.', '0.4, 1/2, 3/5', '3/5, 1/2, 0.4', false, 'high'],
    ['Write 1/2, 0.4, 3/5 in ascending order.', '0.4, 1/2, 3/5', '0.4, 0.5, 0.6', true, 'high'],
    ['List the prime factors of 6.', '2, 3', '3, 2', true, 'low'],
    // A true statement of numbers answered by its expression alone: low; by its value alone or a false one: sure.
    ['Insert one pair of brackets to make 2 + 3 × 4 = 20 true.', '(2 + 3) × 4 = 20', '(2+3)*4', true, 'low'],
    ['Insert one pair of brackets to make 2 + 3 × 4 = 20 true.', '(2 + 3) × 4 = 20', '20', false, 'high'],
    ['Insert one pair of brackets to make 2 + 3 × 4 = 20 true.', '(2 + 3) × 4 = 20', '2 + (3 × 4)', false, 'high'],
    // A root of a square not worked out: low where no form is asked, sure where the simplest is.
    ['Find the hypotenuse of a right triangle with legs 6 and 8.', '10', '√100', false, 'low'],
    ['Find the hypotenuse of a right triangle with legs 6 and 8. Give your answer in its simplest form.', '10', '√100', false, 'high'],
  ])('%s / %s / %s', (q, ref, answer, accepted, confidence) => expectVerdict(ask(q, ref, answer), accepted, confidence));
});

describe('rubric totals: a cap, marks in other forms, totals in other words', () => {
  const grade = (scheme: string, answer = 'something unrelated about cheese') => gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain.', user_answer: answer, scoring_details: scheme });
  it.each<[string, string, number]>([
    ['a cap on the last line under more marks', '(2) names the cause of the flood\n(2) names the effect on farms\n(1) gives the year\nMax. 4', 4],
    ['a cap after a ; list', 'names the river (1m); names the sea (1m); names the delta (1m) — max 2', 2],
    ['a cap in words', 'Credit any of: names the river (1); names the sea (1); names the delta (1). Two marks maximum.', 2],
    ['a bare Nm column', '1. names the gas 1m\n2. describes the test for it 2m', 3],
    ['bold mark prefixes', '**2 marks** – explains the cause of the flood\n**1 mark** – names the effect on farms', 3],
    ['a Dutch title over bullets', 'Puntenverdeling (3 punten)\n• noemt de oorzaak (1 punt)\n• noemt het gevolg (1 punt)\n• noemt het jaar (1 punt)', 3],
    ['a Portuguese title over dashes', 'Cotação (3 pontos)\n- refere a causa (2 pontos)\n- refere o efeito (2 pontos)', 3],
    ['what a student earns, in words', 'A student can earn two marks: one for naming the gas and one for describing the test.', 2],
    ['a lone [N] under examiner\'s notes', '• names the cause — 1 mark\n• names the effect — 1 mark\n• gives the year — 1 mark\nAccept: "flood" for the cause.\nReject: "rain" alone.\n[2]', 2],
    ['bands labelled by their marks', 'Marks 0: nothing relevant.\nMarks 1-3: names the cause or the effect.\nMarks 4-5: names the cause and explains the effect.', 5],
    ['a one-line scale', 'Scoring: 0 = nothing relevant; 1 = names the cause; 2 = names the cause and the effect.', 2],
    ['a scale of what each count earns', 'Points (tick each):\n• names the cause\n• names the effect\n• gives the year\nScoring: 3 ticks = 3 marks; 2 ticks = 2 marks; 1 tick = 1 mark.', 3],
    ['a Marks line with a note in brackets', 'Marks: 2 (1 per point)\n- names the cause of the flood\n- names the effect on farms', 2],
  ])('%s', (_, scheme, total) => expect(grade(scheme).max_score).toBe(total));

  it('a cap keeps the marks earned up to it, not scaled', () => {
    const g = grade('names the river (1m); names the sea (1m); names the delta (1m) — max 2', 'The river Nile, the Mediterranean sea and the delta.');
    expect(g.max_score).toBe(2);
    expect(g.score).toBe(2);
  });
});
