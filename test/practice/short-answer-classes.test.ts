/**
 * Short answers by class: years said in words, accented and non-Latin letters, unit symbols, a
 * term the question completes, name particles, degrees of an adjective, and a claim added to a
 * numeric answer. Each class is tested both ways: the right answer accepted, a near miss refused.
 */
import { describe, expect, it } from 'vitest';
import { expectCostWithin } from '../helpers/cost.ts';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { gradeMath } from '../../server/practice/grading/math/index.ts';
import { numberFromWords } from '../../server/practice/grading/number-words.ts';
import { addedClaimAgainst, checkAddedClaim } from '../../server/practice/grading/added-claim.ts';
import { gradeShortAnswer } from '../../server/practice/grading/short-answer.ts';

const grade = (problem_statement: string, correct_answer: string, user_answer: string) =>
  gradeAnswer({ problem_type: 'frq', problem_statement, correct_answer, user_answer });

type Case = [question: string, reference: string, answer: string, score: 0 | 1];

const expectScores = (cases: Case[]) =>
  it.each(cases)('%s | %s | %s -> %i', (q, ref, answer, score) => {
    expect(grade(q, ref, answer).score).toBe(score);
  });

describe('a year said in words', () => {
  it.each([
    ['nineteen sixty-nine', 1969],
    ['nineteen sixty nine', 1969],
    ['eighteen fifteen', 1815],
    ['twenty ten', 2010],
    ['twenty twenty-two', 2022],
    ['nineteen oh seven', 1907],
    ['nineteen hundred', 1900],
    ['nineteen hundred and twelve', 1912],
    ['two thousand and eight', 2008],
    ['two thousand eight', 2008],
    // Not years: tens and a digit, a number and a scale.
    ['twenty one', 21],
    ['ninety nine', 99],
    ['three hundred and forty', 340],
    ['four million two hundred thousand', 4_200_000],
  ] as const)('%s = %i', (words, n) => expect(numberFromWords(words)).toBe(n));

  it.each(['one two', 'five seven', 'zero twelve', 'seven oh', 'oh', 'twenty one oh oh'])('%s names no number', (words) => {
    expect(numberFromWords(words)).toBeNull();
  });

  expectScores([
    ['In which year did people first walk on the Moon?', '1969', 'nineteen sixty-nine', 1],
    ['In which year did people first walk on the Moon?', '1969', 'nineteen sixty nine', 1],
    ['In which year did people first walk on the Moon?', '1969', 'nineteen sixty-eight', 0],
    ['In which year did the Titanic sink?', '1912', 'nineteen twelve', 1],
    ['In which year did the Titanic sink?', '1912', 'nineteen hundred and twelve', 1],
    ['In which year did the Titanic sink?', '1912', 'twenty twelve', 0],
  ]);
});

describe('accents and other scripts', () => {
  expectScores([
    ['Who composed the New World Symphony?', 'Antonín Dvořák', 'Antonin Dvorak', 1],
    ['Who composed the New World Symphony?', 'Antonin Dvorak', 'Antonín Dvořák', 1],
    ['Who composed the New World Symphony?', 'Antonín Dvořák', 'Dvorak', 1],
    ['Who composed the New World Symphony?', 'Antonín Dvořák', 'Bedřich Smetana', 0],
    // A letter with no accent to strip is spelled in Latin letters.
    ['Which Danish philosopher wrote Fear and Trembling?', 'Søren Kierkegaard', 'Soren Kierkegaard', 1],
    ['Which Danish philosopher wrote Fear and Trembling?', 'Søren Kierkegaard', 'Kierkegaard', 1],
  ]);

  it('an answer in another script is read as an answer, not as none', () => {
    const r = grade('Who composed the New World Symphony?', 'Antonín Dvořák', 'Дворжак');
    expect(r.score).toBe(0);
    expect(r.explanation).not.toMatch(/No answer was given/);
  });

  it('an answer of punctuation only says there is nothing to read; an empty one that none was given', () => {
    expect(gradeShortAnswer('?!', 'Antonín Dvořák', 'Who composed it?').explanation).toMatch(/no word or number to read/);
    expect(gradeShortAnswer('  ', 'Antonín Dvořák', 'Who composed it?').explanation).toMatch(/No answer was given/);
  });
});

describe('unit symbols read by name', () => {
  expectScores([
    ['In which unit is the resistance of a resistor given?', 'ohms', 'Ω', 1],
    ['In which unit is the resistance of a resistor given?', 'ohms', 'Ω', 1],
    ['In which unit is the resistance of a resistor given?', 'ohms', 'V', 0],
    ['In which unit is the resistance of a resistor given?', 'ohms', 'kΩ', 0],
    // On both sides: a symbol in the reference is met by the unit's name.
    ['Which symbol stands for the ohm?', 'Ω', 'ohm', 1],
    ['What is one millionth of a gram called?', 'microgram', 'µg', 1],
    ['What is one millionth of a gram called?', 'microgram', 'μg', 1],
    ['What is one millionth of a gram called?', 'microgram', 'mg', 0],
    ['Which unit equals one ten-billionth of a metre?', 'angstrom', 'Å', 1],
    ['Which unit equals one ten-billionth of a metre?', 'angstrom', 'Ångström', 1],
    ['Which unit equals one ten-billionth of a metre?', 'angstrom', 'nm', 0],
    ['Which scale has water freezing at 0 and boiling at 100?', 'degrees Celsius', '°C', 1],
    ['Which scale has water freezing at 0 and boiling at 100?', 'degrees Celsius', '℃', 1],
    ['Which scale has water freezing at 0 and boiling at 100?', 'degrees Celsius', '°F', 0],
    ['Which scale has water freezing at 0 and boiling at 100?', 'degrees Celsius', '℉', 0],
  ]);
});

describe('a longer term completed by the question', () => {
  expectScores([
    ['Which kind of rock is marble?', 'metamorphic', 'metamorphic rock', 1],
    ['Which kind of rock is marble?', 'metamorphic', 'a metamorphic rock', 1],
    ['Which kind of rock is marble?', 'metamorphic', 'sedimentary rock', 0],
    // Extra words the question does not say still name something else.
    ['Which organelle holds a cell\'s DNA?', 'nucleus', 'subthalamic nucleus', 0],
    ['Which organelle holds a cell\'s DNA?', 'nucleus', 'the nucleus', 1],
  ]);
});

describe('name particles', () => {
  expectScores([
    ['Who composed the Moonlight Sonata?', 'Ludwig van Beethoven', 'Ludwig van Beethoven', 1],
    ['Who composed the Moonlight Sonata?', 'Ludwig van Beethoven', 'van Beethoven', 1],
    ['Who composed the Moonlight Sonata?', 'Ludwig van Beethoven', 'Van Beethoven', 1],
    ['Who composed the Moonlight Sonata?', 'Ludwig van Beethoven', 'Beethoven', 1],
    ['Who composed the Moonlight Sonata?', 'Ludwig van Beethoven', 'Johann van Beethoven', 0],
    ['Who composed the Moonlight Sonata?', 'Ludwig van Beethoven', 'Johann Van Beethoven', 0],
    ['Who led the Free French in the Second World War?', 'Charles de Gaulle', 'de Gaulle', 1],
    ['Who led the Free French in the Second World War?', 'Charles de Gaulle', 'General de Gaulle', 1],
    ['Who led the Free French in the Second World War?', 'Charles de Gaulle', 'Pierre de Gaulle', 0],
    ['Who painted the Mona Lisa?', 'Leonardo da Vinci', 'da Vinci', 1],
    ['Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Leonardo', 1],
    ['Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Piero da Vinci', 0],
    ['Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Leonardo da Silva', 0],
  ]);
});

describe('an adjective of another degree', () => {
  expectScores([
    // WordNet glosses these similar senses as a degree of the reference: "extremely cold", "extremely joyful", "excessively large".
    ['Which word means low in temperature?', 'cold', 'icy', 0],
    ['Which word means low in temperature?', 'cold', 'frigid', 0],
    ['Which word means low in temperature?', 'cold', 'chilly', 1],
    ['Give a word meaning joyful.', 'joyful', 'overjoyed', 0],
    ['Give a word meaning joyful.', 'joyful', 'glad', 1],
    ['Give a word meaning joyful.', 'joyful', 'cheerful', 1],
    ['Give a word meaning joyful.', 'joyful', 'gleeful', 1],
    ['Which word means of great size?', 'large', 'overlarge', 0],
    ['Which word means of great size?', 'large', 'big', 1],
    ['Which word means of great size?', 'large', 'huge', 1],
  ]);
});

describe('a claim added to a numeric answer', () => {
  const pH = 'On the pH scale, what value does a neutral solution have?';
  const right = 'How many degrees are there in a right angle?';
  it.each([
    [pH, '7', '7, which makes it alkaline', /alkaline/],
    [pH, '7', 'seven, so the solution is acidic', /acidic.*less than 7/],
    [right, '90', '90, an obtuse angle', /obtuse/],
    [right, '90', '90 degrees, which is acute', /acute/],
    ['How many sides does a regular pentagon have?', '5', '5, as it is irregular', /opposite of "regular"/],
    [pH, '7', '7? no, wait', /denies or takes it back/],
  ])('%s | %s | %s is refused', (q, ref, answer, why) => {
    expect(addedClaimAgainst(ref, answer, q)).toMatch(why);
  });

  it.each([
    [pH, '7', '7'],
    [pH, '7', '7, neither acidic nor alkaline'],
    [pH, '7', 'seven, so it is neutral'],
    [pH, '7', 'The pH of a neutral solution is 7.'],
    [right, '90', '90 degrees'],
    [right, '90', '90, a quarter of a full turn'],
    ['What is the size of an angle that makes 60 degrees with a straight line?', '120°', '120 degrees, an obtuse angle'],
    ['How many sides does a regular pentagon have?', '5', 'five sides'],
    // Not a plain number: the reference is an expression, left to the math grader.
    ['What is the circumference of a circle of radius 1?', '2π', '2π, which is small'],
  ])('%s | %s | %s adds nothing against it', (q, ref, answer) => {
    expect(addedClaimAgainst(ref, answer, q)).toBeNull();
  });

  it('checkAddedClaim refuses a full-marks math grade with such a claim and keeps the rest as they are', () => {
    const answer = '7, which makes it alkaline';
    const graded = gradeMath(answer, '7', pH);
    expect(graded.score).toBe(1);
    const checked = checkAddedClaim(graded, '7', answer, pH);
    // gradeAnswer checks the claim after the math grader.
    expect(grade(pH, '7', answer).score).toBe(0);
    expect(checked.score).toBe(0);
    expect(checked.missed).toEqual(['7']);
    expect(checked.explanation).toMatch(/alkaline.*expected answer is 7/);
    const plain = gradeMath('7', '7', pH);
    expect(checkAddedClaim(plain, '7', '7', pH)).toBe(plain);
    const wrong = gradeMath('8, which makes it alkaline', '7', pH);
    expect(checkAddedClaim(wrong, '7', '8, which makes it alkaline', pH)).toBe(wrong);
  });

  it('reads a bounded number of words of a long answer', async () => {
    const long = `7, ${'and it is clear '.repeat(2000)}`;
    expect(addedClaimAgainst('7', long, pH)).toBeNull();
    // Ten times the words of a long answer cost about the same: the words read are bounded.
    const longer = `7, ${'and it is clear '.repeat(20_000)}`;
    await expectCostWithin(() => addedClaimAgainst('7', longer, pH), () => addedClaimAgainst('7', long, pH), 4, 'ten times the words');
  });
});
