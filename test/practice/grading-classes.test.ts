/**
 * Grading of free-response answers by class of answer: the form a math question asks for,
 * equivalent mathematical objects, and short answers with negation, correction and aliases.
 * The labelled agreement set (grading-eval/) measures rates; these name each behaviour.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { formulaNames } from '../../server/practice/grading/chem.ts';
import { numberFromWords } from '../../server/practice/grading/number-words.ts';
import { parseRubric } from '../../server/practice/grading/rubric/index.ts';

const grade = (problem_statement: string, correct_answer: string, user_answer: string) =>
  gradeAnswer({ problem_type: 'frq', problem_statement, correct_answer, user_answer });

describe('math answers: value and the form the question asks for', () => {
  it.each([
    ["Simplify 6/8", "3/4", "6/8", 0],
    // The question's own expression is not its answer.
    ["Give the exact value of sqrt(8)", "2\u221a2", "sqrt(8)", 0],
    ["Give the exact value of sqrt(8)", "2\u221a2", "2\\sqrt{2}", 1],
    ["What is 7 \u00d7 8?", "56", "7 \u00d7 8", 0],
    ["Simplify 6/8", "3/4", "3/4", 1],
    ["Simplify 6/8", "3/4", "0.75", 0],
    ["Write 3/8 as a decimal to 3 decimal places", "0.375", "0.376", 0],
    ["Write 3/8 as a decimal to 3 decimal places", "0.375", "0.375", 1],
    ["Round 2/3 to 2 decimal places", "0.67", "0.67", 1],
    ["Round 2/3 to 2 decimal places", "0.67", "0.666", 0],
    ["Write 7/2 as a mixed number", "3 1/2", "1 3/2", 0],
    ["Write 7/2 as a mixed number", "3 1/2", "3 1/2", 1],
    ["Write 7/2 as a mixed number", "3 1/2", "7/2", 0],
    ["Write 7/2 as a mixed number", "3 1/2", "3\\frac{1}{2}", 1],
    ["Add 1 + 3/2", "2\\frac{1}{2}", "5/2", 1],
    ["Find the equation of the line", "y = 2x + 1", "2x - y + 1 = 0", 1],
    ["Find the equation of the line", "y = 2x + 1", "y = 2x + 2", 0],
    ["Circle", "x^2 + y^2 = 9", "y^2 + x^2 = 9", 1],
    ["What is 1/4 as a percent?", "25%", "25%", 1],
    ["What is 1/4 as a percent?", "25%", "0.25", 0],
    ["What fraction?", "1/4", "25%", 1],
    ["Convert 5 m", "5 m", "500 cm", 1],
    ["Convert 5 m", "5 m", "500 m", 0],
    ["Cost", "$92", "92 dollars", 1],
    ["Solve x^2 + x - 6 = 0", "x = 2, x = -3", "x = 2 or x = -3", 1],
    ["Solve x^2 + x - 6 = 0", "x = 2, x = -3", "{2, -3}", 1],
    ["Solve x^2 + x - 6 = 0", "x = 2, x = -3", "x = 2", 0],
    ["Solve x^2 = 9", "x = 3, x = -3", "x = \u00b13", 1],
    ["Solve |x| <= 2 (interval notation)", "[-2, 2]", "(-2, 2)", 0],
    ["Solve |x| <= 2", "[-2, 2]", "-2 <= x <= 2", 1],
    ["Solve x > 3", "x > 3", "(3, \u221e)", 1],
    ["exact value of sin 60", "\\frac{\\sqrt{3}}{2}", "0.866", 0],
    ["value of sin 60", "\\frac{\\sqrt{3}}{2}", "0.866", 1],
    ["value", "\u221a2", "sqrt(2)", 1],
    ["Area of circle radius 2 in terms of pi", "4\u03c0", "4\\pi", 1],
    ["Area of circle radius 2 in terms of pi", "4\u03c0", "12.57", 0],
    ["Expand (x+1)^2", "x^2 + 2x + 1", "(x+1)^2", 0],
    ["Factor x^2 + 2x + 1", "(x+1)^2", "x^2+2x+1", 0],
    ["Factor x^2 + 2x + 1", "(x+1)^2", "(x+1)(x+1)", 1],
    ["Simplify 2x + 3x", "5x", "2x+3x", 0],
    ["Simplify 2x + 3x", "5x", "x*5", 1],
    ["Simplify sqrt 50", "5\\sqrt{2}", "\\sqrt{50}", 0],
    ["What is 12 * 3", "36", "The answer is 36", 1],
    ["x?", "x = 4", "x equals 4", 1],
    ["2 sig figs of 1234", "1200", "1200", 1],
    ["Give 1234.5 to 2 significant figures", "1200", "1230", 0],
    ["Slope-intercept form", "y = 2x + 1", "2x - y + 1 = 0", 0],
    ["Integrate", "x^3/3 + C", "x^3/3 + c", 1],
    ["mass in kg", "2 kg", "2000 g", 0],
    ["mass", "2 kg", "2000 g", 1],
    ["speed", "5 m/s", "18 km/h", 1],
    ["Solve", "x = 2, y = 1", "(2, 1)", 1],
    ["simplify 14/4", "7/2", "3 1/2", 1],
    ["0.375?", "0.375", "0.38", 0],
    ["pi to 2 dp", "3.14", "3.14", 1],
    ["9.0909%", "9.0909%", "9.09%", 1],
  ] as const)('%s: reference %s, answer %s -> %i', (question, reference, answer, accepted) => {
    const g = grade(question, reference, answer);
    expect(g.score === g.max_score ? 1 : 0, g.explanation).toBe(accepted);
  });

  it('explains what form was missing', () => {
    expect(grade('Simplify 6/8', '3/4', '6/8').explanation).toContain('not in lowest terms');
    expect(grade('Round 2/3 to 2 decimal places', '0.67', '0.666').explanation).toContain('2 decimal place(s)');
    expect(grade('Write 7/2 as a mixed number', '3 1/2', '7/2').explanation).toContain('mixed number');
    expect(grade('Convert 3 kg to grams', '3000 g', '3 kg').explanation).toContain('grams');
  });
});

describe('short answers: negation, correction, aliases, refusals', () => {
  it.each([
    ["Which is the largest planet?", "Jupiter", "Jupiter is not the largest; Saturn is", 0],
    ["Which is the largest planet?", "Jupiter", "Saturn", 0],
    ["Which organelles make proteins?", "ribosomes", "mitochondria? no, ribosomes", 1],
    ["Which organelle releases energy?", "mitochondria", "mitochondria? no, ribosomes", 0],
    ["Which part of a plant absorbs water?", "roots", "the roots do not; the leaves do", 0],
    ["What happens to volume when pressure rises?", "decrease", "increase", 0],
    // A change said with a comparative is the change: "gets lower" decreases, "goes up" increases.
    ["What happens to the boiling point of water at high altitude?", "it decreases", "it gets lower", 1],
    ["What happens to the boiling point of water at high altitude?", "it decreases", "it goes up", 0],
    ["What happens to a metal rod when it is heated?", "it gets longer", "it gets longer", 1],
    ["What happens to the rate of reaction as temperature rises?", "it increases", "it becomes faster", 1],
    ["What happens to the rate of reaction as temperature rises?", "it increases", "it gets slower", 0],
    // A symbol or formula asked for is that written form; subscript digits are digits.
    ["What is the chemical symbol for gold?", "Au", "gold", 0],
    ["What is the chemical symbol for gold?", "Au", "Au", 1],
    ["What is the chemical formula for water?", "H2O", "H₂O", 1],
    ["What gas do humans breathe out?", "carbon dioxide", "CO₂", 1],
    // A count said in words with what it counts.
    ["How many sides does a hexagon have?", "6", "six sides", 1],
    ["How many legs does a spider have?", "8", "six legs", 0],
    // A rare sense is not a synonym when the question does not ask for it ("digest" and "support" share "tolerate").
    ["What does the skeleton provide for the body?", "support", "it digests food", 0],
    ["What is the opposite of 'increase'?", "decrease", "reduce", 1],
    ["What is the past tense of go?", "went", "gone", 0],
    ["What is the past tense of go?", "went", "goed", 0],
    ["What is the past tense of go?", "went", "went", 1],
    ["Which gas do plants absorb?", "carbon dioxide", "CO2", 1],
    ["Which gas do plants absorb?", "CO2", "carbon dioxide", 1],
    ["At what temperature does water freeze?", "0 degrees Celsius", "0 \u00b0C", 1],
    ["At what temperature in Celsius does water freeze?", "0 \u00b0C", "0 degrees", 1],
    ["Who wrote Hamlet?", "William Shakespeare", "Shakespeare", 1],
    ["Who was the first US president?", "George Washington", "Washington", 1],
    // An adjective for the noun it pertains to; a compound written as two words; an illustration is no rival answer.
    ["Which kind of energy do panels on a roof collect from the Sun?", "solar energy", "energy of the sun", 1],
    ["Which kind of energy do panels on a roof collect from the Sun?", "solar energy", "energy of the moon", 0],
    ["Which bone joins the shoulder blade to the breastbone?", "the clavicle", "the collar bone", 1],
    ["Which organelle makes proteins?", "ribosome", "the ribosome, like a tiny factory", 1],
    ["Which organelle makes proteins?", "ribosome", "the ribosome or the nucleus", 0],
    // "no X" after a comma denies X; after a question mark it corrects what came before.
    ["Which technique gives a painting depth?", "linear perspective", "flat colours, no perspective", 0],
    ["Which organelle makes proteins?", "ribosomes", "mitochondria? no ribosomes", 1],
    // A surname stands for a person: the last word of a thing's name is not one.
    ["Which planet is called the Red Planet?", "Red Planet", "inferior planet", 0],
    ["Which ocean lies between Europe and America?", "Atlantic Ocean", "Pacific Ocean", 0],
    ["Who painted the Mona Lisa?", "Leonardo da Vinci", "da Vinci", 1],
    ["Give a synonym of happy.", "joyful", "glad", 1],
    ["Give a word that means happy.", "joyful", "cheerful", 1],
    ["Give a word that means happy.", "joyful", "sad", 0],
    ["What energy do plants use in photosynthesis?", "light energy", "sunlight", 1],
    ["How many legs does a spider have?", "8", "eight", 1],
    ["How many legs does a spider have?", "eight", "8 legs", 1],
    ["Which planet is closest to the Sun?", "Mercury", "Mercury", 1],
    ["Which planet is closest to the Sun?", "Mercury", "Venus", 0],
    ["Which planet is closest to the Sun?", "Mercury", "I think it is Mercury, not Venus", 1],
    ["Which planet is closest to the Sun?", "Mercury", "Not Mercury", 0],
    ["How do plants make food?", "photosynthesis", "photosynthesys", 1],
    ["Which cell division makes gametes?", "meiosis", "mitosis", 0],
    ["What is the capital of France?", "Paris", "Paris", 1],
    ["What is the capital of France?", "Paris", "paris, france", 1],
    ["What is the capital of France?", "Paris", "Lyon", 0],
    ["What is it called when vapour becomes liquid?", "condensation", "evaporation", 0],
    ["What is the longest river in Africa?", "Nile", "the Nile", 1],
    ["Who gave the Gettysburg Address?", "Lincoln", "Abraham Lincoln", 1],
    ["Who gave the Gettysburg Address?", "Lincoln", "Lincoln Navigator", 0],
    // An added superlative is checked against WordNet's glosses: it names one thing of its kind.
    ["Which planet is closest to the Sun?", "Mercury", "Mercury, which is also the largest planet", 0],
    ["Which planet is closest to the Sun?", "Mercury", "Mercury, the smallest planet", 1],
    ["Which ocean lies west of America?", "Pacific Ocean", "the Pacific, the smallest ocean", 0],
    ["Which river flows through Brazil?", "the Amazon", "The Amazon, the longest river in the world", 0],
    ["Which river flows through Egypt?", "the Nile", "The Nile, the longest river in the world", 1],
    ["Which metal is liquid at room temperature?", "mercury", "mercury, the heaviest metal", 0],
    ["What is the highest mountain in the world?", "Mount Everest", "Everest, the highest mountain", 1],
    ["Which is the largest country by area?", "Russia", "Russia, the largest country in the world", 1],
    ["Which is the largest planet?", "Jupiter", "Jupiter, the biggest one", 1],
  ] as const)('%s: reference %s, answer %s -> %i', (question, reference, answer, accepted) => {
    const g = grade(question, reference, answer);
    expect(g.score === g.max_score ? 1 : 0, g.explanation).toBe(accepted);
  });

  it('names what was matched and what was refused', () => {
    expect(grade('Which is the largest planet?', 'Jupiter', 'Jupiter is not the largest; Saturn is').explanation).toContain('denies');
    expect(grade('q', 'decrease', 'increase').explanation).toContain('opposite');
    expect(grade('Which gas?', 'carbon dioxide', 'CO2').explanation).toContain('another name');
    expect(grade('Who?', 'George Washington', 'George Washington Carver').explanation).toContain('George Washington Carver');
    expect(grade('Which bees collect?', 'nectar', 'either pollen or nectar').explanation).toContain('hedges');
    expect(grade('Which organ pumps blood?', 'heart', 'the heart and the lungs').explanation).toContain('lungs');
    expect(grade('Which river flows through Brazil?', 'the Amazon', 'The Amazon, the longest river in the world').explanation).toMatch(/WordNet gives "the longest river in the world" to Nile \("the world's longest river/);
    expect(grade('Which ocean?', 'Pacific Ocean', 'the Pacific, the smallest ocean').explanation).toContain('WordNet says Pacific is "the largest ocean in the world"');
  });

  it('reads chemical formulas and number words', () => {
    expect(formulaNames('NaCl')).toEqual(['sodium chloride']);
    expect(formulaNames('CO2')).toEqual(['carbon dioxide']);
    expect(formulaNames('CaCl2')).toEqual(['calcium chloride']);
    expect(formulaNames('O2')).toEqual(['oxygen']);
    expect(formulaNames('HCl')).toEqual(['hydrogen chloride']);
    expect(formulaNames('H2O2')).toEqual([]);
    expect(formulaNames('Hello')).toEqual([]);
    expect(numberFromWords('twenty-one')).toBe(21);
    expect(numberFromWords('one hundred and five')).toBe(105);
    expect(numberFromWords('one sixth')).toBeNull();
  });
});

describe('rubrics that hold mathematics', () => {
  it('a "+ 1" inside an expression is arithmetic, not a mark', () => {
    const read = (r: string) => parseRubric(r, false).map((c) => [c.points, c.text]);
    expect(read("Full credit for f'(x) = 36x^3 - 2x + 1/2 in any equivalent form.")).toEqual([[1, "f'(x) = 36x^3 - 2x + 1/2 in any equivalent form"]]);
    expect(read('1 mark: writes x^2 + 1 = 0')).toEqual([[1, 'writes x^2 + 1 = 0']]);
    expect(read('Names the kidney +1\nStates urea is removed +1')).toEqual([
      [1, 'Names the kidney'],
      [1, 'States urea is removed'],
    ]);
  });

  it('a generated problem carrying its one-line rubric is graded by the CAS, a teacher rubric with working by the rubric', () => {
    const q = 'Find the derivative of f(x) = 9x^4 - x^2 + (1/2)x + 5.';
    const own = gradeAnswer({ problem_type: 'frq', problem_statement: q, user_answer: '36x^3 - 2x + 0.5', correct_answer: '36x^3 - 2x + 1/2', scoring_details: "Full credit for f'(x) = 36x^3 - 2x + 1/2 in any equivalent form." });
    expect(own).toMatchObject({ method: 'math', score: 1, max_score: 1 });
    const worked = gradeAnswer({
      problem_type: 'frq',
      problem_statement: 'A car accelerates from rest to 20 m/s in 5 s. Calculate its acceleration, showing your steps.',
      user_answer: 'a = (20 - 0) / 5 = 4',
      correct_answer: '4 m/s²',
      scoring_details: '4 points: correct answer with all steps shown and units\n3 points: correct answer with steps shown but missing units\n2 points: correct method with an arithmetic error\n1 point: some relevant working\n0 points: no relevant working',
    });
    expect(worked).toMatchObject({ method: 'rubric', score: 3, max_score: 4 });
    // The same ladder without its "0 points" line is still levels, worth its top.
    const ladder = '4 points: correct answer with all steps shown and units\n3 points: correct answer with steps shown but missing units\n2 points: correct method with an arithmetic error\n1 point: some relevant working';
    expect(parseRubric(ladder, false).map((c) => [c.kind, c.points])).toEqual([['levels', 4]]);
  });

  it.each<[string, number]>([
    // The formula in its words, in another order, or with the question's values in place of the names.
    ['Volume = length × width × height = 5 × 3 × 2 = 30 cm³', 3],
    ['V = height × length × width = 30 cm³', 2],
    ['5 × 3 × 2 = 30 cm³', 3],
    // Substituted the wrong way: no mark for the substitution, and the value is wrong.
    ['Volume = length × width × height = 5 + 3 + 2 = 10 cm³', 1],
    // Substituted correctly, then an arithmetic slip: the substitution earns its mark.
    ['V = length × width × height = 5 × 3 × 2 = 25 cm³', 2],
    ['30', 1],
  ])('a worked calculation: formula, substitution and value read with the CAS — %s → %i', async (answer, score) => {
    const g = await gradeAnswer({
      problem_type: 'frq',
      problem_statement: 'A box has length 5 cm, width 3 cm and height 2 cm. Find its volume, showing your working.',
      user_answer: answer,
      correct_answer: '30 cm³',
      scoring_details: '1 mark: uses the formula length × width × height\n1 mark: substitutes 5, 3 and 2 correctly\n1 mark: the answer 30 cm³',
    });
    expect(g.score, g.explanation).toBe(score);
  });
});
