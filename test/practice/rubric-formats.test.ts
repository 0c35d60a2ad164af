import { describe, expect, it } from 'vitest';
import { expectCostWithin } from '../helpers/cost.ts';
import { gradeAnswer, GradingInputError } from '../../server/practice/grading/index.ts';
import { type Criterion, gradeRubric, MAX_WORDINGS, parseRubric } from '../../server/practice/grading/rubric/index.ts';

/** A criterion as points: a number (concept), {levels: [top…bottom]} or {each, cap}. */
function shape(c: Criterion): unknown {
  if (c.kind === 'concept') return c.points;
  if (c.kind === 'levels') return { levels: c.levels.map((l) => (l.min < l.points ? `${l.min}-${l.points}` : l.points)) };
  return { each: c.per, cap: c.points };
}

function read(rubric: string) {
  const criteria = parseRubric(rubric, false);
  return { shape: criteria.map(shape), max: criteria.reduce((s, c) => s + c.points, 0), criteria };
}

const grade = (answer: string, rubric: string) => gradeRubric(answer, rubric, false);

describe('parseRubric: points and max per layout', () => {
  it.each<[string, string, unknown[], number]>([
    ['one per line, no points', 'names osmosis\nexplains the direction of water movement\nmentions the membrane', [1, 1, 1], 3],
    ['several "1 point:" on one line', '1 point: names osmosis. 1 point: explains that water moves from dilute to concentrated solution.', [1, 1], 2],
    ['"1 mark:" three on one line', '1 mark: names chlorophyll. 1 mark: states it absorbs light. 1 mark: states it is found in chloroplasts.', [1, 1, 1], 3],
    ['inline (1) (2) enumeration', '(1) names the process (2) explains the direction of movement', [1, 1], 2],
    ['inline a) b) c) enumeration', 'a) names osmosis b) explains direction c) mentions membrane', [1, 1, 1], 3],
    ['bullets with "(N marks)" after', '- Names osmosis (1 mark)\n- Explains direction of water movement (2 marks)', [1, 2], 3],
    ['* bullets with "[N]"', '* names osmosis [1]\n* explains direction [2]', [1, 2], 3],
    ['• bullets with "— N marks"', '• names osmosis — 1 mark\n• explains the direction of water movement — 2 marks', [1, 2], 3],
    ['numbered 1. 2. 3. with mixed markers and a total line', '1. States that the heart pumps blood [1]\n2. Names the four chambers [1]\n3. Explains double circulation — 2 marks\nTotal: 4 marks', [1, 1, 2], 4],
    ['comma list where each item carries points', 'names osmosis (1), explains the direction (2), mentions the membrane (1)', [1, 2, 1], 4],
    ['comma list without points is one criterion', 'names osmosis, explains direction, mentions membrane', [1], 1],
    ['semicolon list', 'Names osmosis; explains direction; mentions membrane', [1, 1, 1], 3],
    ['semicolon list with "[1 mark]"', 'mentions friction [1 mark]; mentions heat [1 mark]; mentions energy transfer [1 mark]', [1, 1, 1], 3],
    ['"+1" before', '+1 names osmosis\n+1 explains direction', [1, 1], 2],
    ['"[2]" before', '[2] explains direction of water\n[1] names osmosis', [2, 1], 3],
    ['"2 marks —" before, unrelated criteria (not levels)', '2 marks — explains the direction of water movement\n1 mark — names osmosis', [2, 1], 3],
    ['"Np" and word numbers', '2p: explains refraction\n1p: names the normal', [2, 1], 3],
    ['"One mark for … One mark for …"', 'One mark for naming the vacuole. One mark for stating it stores sap.', [1, 1], 2],
    ['half marks', 'names the cell wall (½ mark), names the membrane (½ mark)', [0.5, 0.5], 1],
    ['"1 point if …, 1 point if …"', "1 point if the answer names Newton's first law, 1 point if it explains inertia", [1, 1], 2],
    ['"(2)" leading a lone line is points', '(2) explains that water expands when it freezes', [2], 2],
    ['"Up to N marks for X"', 'Up to 3 marks for explaining how the structure of the alveoli helps gas exchange', [3], 3],
    ['trailing sentence marker, max line', 'Explains that heat flows from hot to cold (1), by conduction (1), until equilibrium is reached (1). Max 3.', [1, 1, 1], 3],
    ['heading "Award N marks for:" over as many items', 'Award 3 marks for:\n- osmosis\n- water potential\n- partially permeable membrane', [1, 1, 1], 3],
    ['inline heading with a ; list', 'Award 3 marks for: osmosis; water potential; partially permeable membrane', [1, 1, 1], 3],
    ['heading over more items than marks: any N of them', 'Award 2 marks for:\n- osmosis\n- water potential\n- partially permeable membrane\n- concentration gradient', [{ each: 1, cap: 2 }], 2],
    ['heading over fewer items than marks: split evenly', 'Marking scheme (4 marks):\n- osmosis\n- partially permeable membrane', [2, 2], 4],
    ["heading's number differs from the items' points: items win", 'Marking scheme (5 marks):\n- it is cheap (2)\n- it is fast (2)\n- it is clean (2)', [2, 2, 2], 6],
    ['"Total: N" over unmarked lines', 'Total: 3\nnames osmosis\nexplains direction\nmentions membrane', [1, 1, 1], 3],
    ['question label line is a heading', 'Q3 (4 marks)\n• Identifies the independent variable (1)\n• Identifies the dependent variable (1)\n• Describes one control variable and why it must be controlled (2)', [1, 1, 2], 4],
    ['"Award 4 marks: 2 for …, 2 for …"', 'Award 4 marks: 2 for naming the process (osmosis), 2 for explaining the direction', [2, 2], 4],
    ['levels on one line with " / "', '3 marks: explains osmosis and water potential with an example / 2 marks: explains osmosis and water potential / 1 mark: names osmosis', [{ levels: [3, 2, 1] }], 3],
    ['levels on separate lines (each repeats the one below)', '3 marks: explains that plants make glucose from light with an example\n2 marks: explains that plants make glucose from light\n1 mark: mentions light', [{ levels: [3, 2, 1] }], 3],
    ['"Level N (a-b marks):" ranges', 'Level 3 (5-6 marks): detailed explanation of how greenhouse gases trap heat, with examples of effects\nLevel 2 (3-4 marks): explains that greenhouse gases trap heat\nLevel 1 (1-2 marks): mentions greenhouse gases', [{ levels: ['5-6', '3-4', '1-2'] }], 6],
    ['"Full marks (2): … Partial (1): …" on one line', 'Full marks (2): explains that plants make glucose from light. Partial (1): mentions light.', [{ levels: [2, 1] }], 2],
    ['"Full marks / Half marks / No marks" without numbers', 'Full marks: identifies both the cause and the effect.\nHalf marks: identifies either the cause or the effect.\nNo marks: no relevant point.', [{ levels: [2, 1] }], 2],
    ['"Band N:" without marks: the band number', 'Band 3: analyses the causes with evidence\nBand 2: describes the causes\nBand 1: lists a cause', [{ levels: [3, 2, 1] }], 3],
    ['"2 marks for …; 1 mark for … only"', '2 marks for a full explanation of diffusion; 1 mark for naming diffusion only', [{ levels: [2, 1] }], 2],
    ['word-number levels with " - "', 'Two marks - explains that ice floats because it is less dense than water\nOne mark - states that ice is less dense', [{ levels: [2, 1] }], 2],
    ['"1 point for each …, up to N"', '1 point for each correct example, up to 3', [{ each: 1, cap: 3 }], 3],
    ['"1 mark per … (max N)"', '1 mark per reason (max 2)', [{ each: 1, cap: 2 }], 2],
    ['"N marks per …, up to K items"', '2 marks per reason, up to 3 reasons', [{ each: 2, cap: 6 }], 6],
    ['"… up to a maximum of N marks"', '2 marks for each reason, up to a maximum of 6 marks', [{ each: 2, cap: 6 }], 6],
    ['"1 point each for any of: A, B, C, D (max 3)"', '1 point each for any of: solar, wind, hydro, geothermal (max 3)', [{ each: 1, cap: 3 }], 3],
    ['"Any two of the following (1 mark each):" over a list', 'Any two of the following (1 mark each):\n- carbon dioxide\n- methane\n- water vapour\n- nitrous oxide', [{ each: 1, cap: 2 }], 2],
    ['"Any 3 from: … (1 mark each)"', 'Any 3 from: militarism, alliances, imperialism, nationalism, assassination of Franz Ferdinand (1 mark each)', [{ each: 1, cap: 3 }], 3],
    ['a list followed by "(1 mark each)"', 'osmosis, diffusion and active transport (1 mark each)', [{ each: 1, cap: 3 }], 3],
    ['a ; list followed by "(1 mark each)"', 'names osmosis; names diffusion (1 mark each)', [{ each: 1, cap: 2 }], 2],
    ['"names two … (1 mark each)"', 'names two greenhouse gases (1 mark each)', [{ each: 1, cap: 2 }], 2],
    ['capped options never exceed what the options can earn', '1 mark each for any of: oxygen, nitrogen (max 5)', [{ each: 1, cap: 2 }], 2],
    ['prose with no points is one criterion', 'A good answer mentions that the sky is blue because of Rayleigh scattering.', [1], 1],
    ['prose of several sentences is still one criterion', 'The answer should explain why the moon has phases. It should mention reflected sunlight.', [1], 1],
    ['"OR" line joins two criteria', 'names the nucleus\nOR\nnames the cell nucleus', [1], 1],
    ['"(1 mark) or … (1 mark)" is one criterion', 'mentions that the Earth rotates on its axis (1 mark) or that it spins (1 mark)', [1], 1],
    ['note sentences after a marked criterion', "Explains that the price rises because demand exceeds supply. (2 marks) Accept: shortage. Do not accept: 'prices go up'.", [2], 2],
    [
      'a real-looking mark scheme mixing layouts',
      'Marking scheme (6 marks)\n1. Identifies the independent variable (temperature) [1]\n2. Identifies the dependent variable (rate of reaction) [1]\n3. Any two control variables (1 mark each), e.g. concentration, volume, surface area\n4. Explains why a control variable must be kept the same — 2 marks',
      [1, 1, { each: 1, cap: 2 }, 2],
      6,
    ],
    [
      'indicative content beside levels is not scored itself',
      'Indicative content:\n- rising sea levels\n- extreme weather\n- loss of habitats\nLevel 2 (3-4 marks): explains two or more effects in detail\nLevel 1 (1-2 marks): names one effect',
      [{ levels: ['3-4', '1-2'] }],
      4,
    ],
    ['"1 point:" criteria running on without full stops', '1 point: names osmosis 1 point: explains direction of water', [1, 1], 2],
    ['levels that only count ("both reasons" / "one reason")', '2 marks: both reasons correct; 1 mark: one reason correct', [{ levels: [2, 1] }], 2],
    ['a pasted table with a header row', '| Criterion | Marks |\n|---|---|\n| Names osmosis | 1 |\n| Explains direction of water movement | 2 |', [1, 2], 3],
    ['a level table: label | range | descriptor', 'Level | Marks | Descriptor\nLevel 2 | 3-4 | explains that greenhouse gases trap heat\nLevel 1 | 1-2 | mentions greenhouse gases', [{ levels: ['3-4', '1-2'] }], 4],
    ['"Level N: … (a-b marks)" points at the end', 'Level 3: explains fully how heat is trapped (5-6 marks)\nLevel 2: explains how heat is trapped (3-4 marks)', [{ levels: ['5-6', '3-4'] }], 6],
    ['named levels "Excellent (4): … Poor (1):"', 'Excellent (4): explains osmosis, water potential and the membrane\nGood (3): explains osmosis and water potential\nFair (2): explains osmosis\nPoor (1): names osmosis', [{ levels: [4, 3, 2, 1] }], 4],
    ['"Score 2: … Score 0: …" scoring guide', 'Score 2: The response explains that light is refracted at the boundary\nScore 1: The response states that light bends\nScore 0: The response is incorrect', [{ levels: [2, 1] }], 2],
    ['"2-point response:"', '2-point response: explains both causes\n1-point response: explains one cause', [{ levels: [2, 1] }], 2],
    ['"Max N" under equal-point items caps them: any of them', 'Names osmosis (1), names diffusion (1), names active transport (1). Max 2.', [{ each: 1, cap: 2 }], 2],
    ['"Label (N marks): criterion"', 'Thesis (2 marks): clearly states a position\nEvidence (2 marks): gives two supporting quotations\nConclusion (1 mark): restates the position', [2, 2, 1], 5],
    ['"N mark for any of the following:" is one mark for any of them', 'Award 1 mark for any of the following: osmosis, diffusion, active transport', [{ each: 1, cap: 1 }], 1],
    ['"Must mention:" heading over bullets', 'Must mention:\n• water\n• membrane', [1, 1], 2],
    ['"Score N marks if …" is a verb and a marker', 'Score 2 marks if the answer names both gases', [2], 2],
    ['remarks ("Note:", "Do not award marks for …") are not criteria', 'Names osmosis\nNote: the spelling need not be exact.\nDo not award marks for simply restating the question.', [1], 1],
  ])('%s', (_name, rubric, expected, max) => {
    const r = read(rubric);
    expect(r.shape).toEqual(expected);
    expect(r.max).toBe(max);
  });

  it('a heading or total alone is not a criterion', () => {
    const r = read('Award 3 marks for:\n- osmosis\n- diffusion\n- active transport');
    expect(r.criteria.map((c) => c.text)).toEqual(['osmosis', 'diffusion', 'active transport']);
  });

  it('reads alternatives: (accept: …), also accept, X OR Y, X / Y, an answer in brackets after a naming verb', () => {
    const variants = (rubric: string) => (parseRubric(rubric, false)[0] as Extract<Criterion, { kind: 'concept' }>).variants;
    expect(variants('Names the mitochondrion (accept: mitochondria, powerhouse of the cell)')).toEqual(['Names the mitochondrion', 'mitochondria', 'powerhouse of the cell']);
    expect(variants("A correct answer identifies the mitochondria as the site of respiration. Also accept 'powerhouse'.")).toContain('powerhouse');
    expect(variants('photosynthesis OR carbon fixation')).toEqual(['photosynthesis', 'carbon fixation']);
    expect(variants('heat / thermal energy')).toEqual(['heat', 'thermal energy']);
    expect(variants('naming the enzyme (amylase)')).toContain('amylase');
    expect(variants("Explains that enzymes are denatured at high temperature (2 pts) - accept 'active site changes shape'")).toContain('active site changes shape');
    // A formula's slash is division, not two alternatives.
    expect(variants('States the formula: speed = distance / time (1 mark)')).toContain('speed = distance / time');
    expect(variants("Correct answer: 'Paris' (accept 'Paris, France')")).toContain('Paris, France');
  });

  it('reads refusals: do not accept, reject, NOT', () => {
    const rejects = (rubric: string) => (parseRubric(rubric, false)[0] as Extract<Criterion, { kind: 'concept' }>).rejects;
    expect(rejects("States that energy is released (do not accept 'energy is made')")).toEqual(['energy is made']);
    expect(rejects('names the nucleus; reject nucleolus')).toEqual(['nucleolus']);
    expect(rejects('names the vacuole\nNOT cell sap')).toEqual(['cell sap']);
  });

  it('a reference answer is read line by line, else sentence by sentence, 1 each, its words as written', () => {
    expect(parseRubric('Plants make glucose from light. They release oxygen.', true).map(shape)).toEqual([1, 1]);
    expect(parseRubric('- glucose\n- oxygen\n- water', true).map(shape)).toEqual([1, 1, 1]);
    // Words that are instructions or notes in a rubric are the answer's own words in a reference.
    expect(gradeRubric('We reject the null hypothesis.', 'Reject the null hypothesis.', true).score).toBe(1);
    expect(gradeRubric('Python lists are mutable.', 'Lists are mutable in Python.', true).score).toBe(1);
    expect(gradeRubric('Python tuples are immutable.', 'Lists are mutable in Python.', true).score).toBeLessThan(1);
  });
});

describe('gradeRubric on answers meeting all, some, none or the opposite', () => {
  const byLine = '- Names osmosis (1 mark)\n- Explains that water moves from a dilute to a concentrated solution (2 marks)';
  it.each<[string, string, number]>([
    ['all', 'Osmosis: water moves from a dilute solution into a concentrated one.', 3],
    ['some', 'This is osmosis.', 1],
    ['none', 'I am not sure.', 0],
    ['the opposite', 'It is not osmosis, and water does not move from a dilute to a concentrated solution.', 0],
  ])('criteria with their own points: %s', (_case, answer, score) => {
    const g = grade(answer, byLine);
    expect(g.max_score).toBe(3);
    expect(g.score, g.explanation).toBe(score);
  });

  it('names each criterion met, partly met, missed or contradicted', () => {
    expect(grade('This is osmosis.', byLine).explanation).toMatch(/Met: Names osmosis \(1\/1\).*Missed: Explains that water moves/);
    expect(grade('Osmosis; water moves.', byLine).explanation).toMatch(/Partly met: Explains that water moves .*\(1\/2\) — missing: dilute, concentrated, solution/);
    const opposite = grade('It is not osmosis.', byLine);
    expect(opposite.explanation).toContain('Contradicted: "Names osmosis"');
    expect(opposite.missed).toContain('Names osmosis (contradicted)');
  });

  const levels = '3 marks: explains osmosis and water potential with an example / 2 marks: explains osmosis and water potential / 1 mark: names osmosis';
  it.each<[string, string, number, RegExp]>([
    ['all (top level)', 'Osmosis is water moving down a water potential gradient, for example into a potato chip in pure water.', 3, /level reached "3 marks/],
    ['some (middle level)', 'Osmosis is the movement of water from high to low water potential.', 2, /level reached "2 marks.*not "3 marks": no example given/],
    ['some (lowest level)', 'It is osmosis.', 1, /level reached "1 mark.*not "2 marks": missing: water, potential/],
    ['none', "I don't know.", 0, /no level reached/],
    ['the opposite', 'It is not osmosis.', 0, /the answer says the opposite/],
  ])('levels: %s', (_case, answer, score, why) => {
    const g = grade(answer, levels);
    expect(g.max_score).toBe(3);
    expect(g.score, g.explanation).toBe(score);
    expect(g.explanation).toMatch(why);
  });

  it('levels that only count are decided by the number of distinct items', () => {
    const rubric = '2 marks: both reasons correct; 1 mark: one reason correct';
    expect(grade('It is cheaper. It is faster.', rubric).score).toBe(2);
    const one = grade('It is cheaper.', rubric);
    expect(one.score).toBe(1);
    expect(one.explanation).toMatch(/not "2 marks": gives 1 distinct item\(s\); it needs 2/);
    expect(grade("I don't know.", rubric).score).toBe(0);
  });

  it('"1 mark for an example" is met by an example given, not by the word', () => {
    const rubric = 'Award 1 mark for naming osmosis and 1 mark for an example.';
    expect(grade('Osmosis, for example water entering root hair cells.', rubric).score).toBe(2);
    const none = grade('Osmosis.', rubric);
    expect(none.score).toBe(1);
    expect(none.explanation).toMatch(/Missed: an example \(0\/1\) — no example given/);
  });

  it('levels with ranges pay the top of a range when every word is there', () => {
    const rubric = 'Level 2 (3-4 marks): explains that greenhouse gases trap heat\nLevel 1 (1-2 marks): mentions greenhouse gases';
    expect(grade('Greenhouse gases trap heat.', rubric)).toMatchObject({ score: 4, max_score: 4 });
    expect(grade('Greenhouse gases trap the heat of the sun in the atmosphere.', rubric).score).toBe(4);
    expect(grade('Greenhouse gases.', rubric).score).toBe(2);
    expect(grade('The weather changes.', rubric).score).toBe(0);
  });

  it('levels guided by indicative content are met by enough of its points', () => {
    const rubric = 'Indicative content:\n- rising sea levels\n- extreme weather\n- melting ice caps\nLevel 2 (3-4 marks): explains two or more effects\nLevel 1 (1-2 marks): names one effect';
    expect(grade('Sea levels are rising, ice caps are melting and there is extreme weather.', rubric)).toMatchObject({ score: 4, max_score: 4 });
    const one = grade('More extreme weather.', rubric);
    expect(one.score).toBeLessThanOrEqual(2);
    expect(one.score).toBeGreaterThan(0);
    expect(one.explanation).toMatch(/makes 1 of the indicative points; it needs 2/);
    expect(grade('Nothing changes.', rubric).score).toBe(0);
  });

  const perItem = '1 point each for any of: solar, wind, hydro, geothermal (max 3)';
  it.each<[string, string, number]>([
    ['all (capped)', 'Solar, wind, hydro and geothermal power.', 3],
    ['some', 'Solar and wind.', 2],
    ['none', 'Coal and oil.', 0],
    ['the opposite', 'Not solar and not wind.', 0],
    ['one option said twice counts once', 'Solar panels. More solar panels.', 1],
  ])('per item from named options: %s', (_case, answer, score) => {
    const g = grade(answer, perItem);
    expect(g.max_score).toBe(3);
    expect(g.score, g.explanation).toBe(score);
  });

  it("a listed option's refusal stays with that option", () => {
    const rubric = 'Any two of the following (1 mark each):\n- carbon dioxide (do not accept carbon monoxide)\n- methane\n- water vapour';
    expect(grade('Carbon dioxide and methane.', rubric).score).toBe(2);
    expect(grade('Carbon monoxide and methane.', rubric).score).toBe(1);
  });

  it('per item without options counts distinct items of the answer, capped', () => {
    const rubric = '1 mark per reason (max 2)';
    expect(grade('It is cheaper. It is faster. It is cleaner.', rubric)).toMatchObject({ score: 2, max_score: 2 });
    expect(grade('It is cheaper. It is cheaper.', rubric).score).toBe(1);
    expect(grade("I don't know.", rubric).score).toBe(0);
    expect(grade('Two greenhouse gases are carbon dioxide and methane.', 'names two greenhouse gases (1 mark each)').score).toBe(2);
  });

  it('per item of a category WordNet knows counts only kinds of it', () => {
    const rubric = '1 point for each example of a mammal, up to 3';
    expect(grade('dog, whale and bat', rubric).score).toBe(3);
    const g = grade('shark, trout and dog', rubric);
    expect(g.score).toBe(1);
    expect(g.explanation).toMatch(/kind of mammal.*"dog"/);
  });

  it("per item of a qualified category refuses what WordNet says of the qualifier's antonym", () => {
    // "gas and oil are nonrenewable resources": fossil fuels (what gas and oil share) are not renewable.
    const rubric = '1 mark for each example of a renewable source of energy, up to 3';
    const mixed = grade('wind, petroleum, hydroelectric power', rubric);
    expect(mixed.score).toBe(2);
    expect(mixed.explanation).toMatch(/not counted: "petroleum" is a kind of fossil fuel \(WordNet: "gas and oil are nonrenewable resources"\)/);
    expect(grade('Coal. Natural gas.', rubric).score).toBe(0);
    expect(grade('geothermal energy, wood, tidal power', rubric).score).toBe(3);
    // The same kinds are right where the category does not carry the qualifier.
    expect(grade('coal, oil, natural gas', '1 mark for each example of a fossil fuel, up to 3').score).toBe(3);
  });

  it("an antonym's example rules out nothing related to the category's own kind", () => {
    // "monotremes and marsupials are aplacental mammals" does not make a dog a non-placental mammal.
    expect(grade('dog, horse, bat', '1 mark for each example of a placental mammal, up to 3').score).toBe(3);
    // "Mercury and Venus are inferior planets": Mars is terrestrial but superior; Jupiter is also a Roman god.
    expect(grade('Mars, Jupiter, Saturn', '1 mark for each example of a superior planet, up to 3').score).toBe(3);
  });

  it('a noun of the criterion said as a verb of its meaning counts ("spins" for "rotation")', () => {
    expect(grade('The Earth spins.', 'States the rotation of the Earth (1 mark)').score).toBe(1);
    // A light verb is not a form of anything: "took" does not say "take-over".
    expect(grade('They took the land.', 'Describes the takeover of the land by settlers (1 mark)').score).toBe(0);
  });

  it('a chemical formula in the answer says its names ("H2O" is water, "NaCl" common salt)', () => {
    expect(grade('Respiration releases CO2 and H2O.', 'Names the products as carbon dioxide and water (1 mark)').score).toBe(1);
    expect(grade('Sodium reacts with chlorine to make NaCl.', 'Names the product as common salt (1 mark)').score).toBe(1);
    expect(grade('Photosynthesis gives off O₂.', 'States that oxygen is given off (1 mark)').score).toBe(1);
    expect(grade('Respiration releases CO and H2O.', 'Names the products as carbon dioxide and water (1 mark)').score).toBe(0);
  });

  it('a "Do not accept:" sentence after a per-item line is a note on it, not the line\'s list', () => {
    const rubric = 'Award 1 mark for each reason (max 3), e.g. cheap labour, new machines, coal and iron nearby, growing markets. Do not accept: good weather.';
    expect(read(rubric).criteria).toMatchObject([{ kind: 'each', points: 3, per: 1, open: true, rejects: ['good weather'] }]);
    expect(grade('Cheap labour, new machines powered by steam, and plenty of coal nearby.', rubric).score).toBe(3);
    expect(grade('The good weather.', rubric).score).toBe(0);
  });

  it('"(accept: A, B, C)" in a per-item criterion lists what counts, and keeps "and" inside its items', () => {
    const rubric = '1 mark for each feature of Gothic architecture, up to 3 (accept: pointed arches, stained glass and large windows, flying buttresses, ribbed vaults)';
    const c = read(rubric).criteria[0] as { options: { text: string }[]; open: boolean };
    expect(c.open).toBe(false);
    expect(c.options.map((o) => o.text)).toEqual(['pointed arches', 'stained glass and large windows', 'flying buttresses', 'ribbed vaults']);
    expect(grade('Pointed arches and flying buttresses.', rubric).score).toBe(2);
    expect(grade('Round arches, thick walls and small windows.', rubric).score).toBe(0);
  });

  it('an answer\'s comma list and its ", and the ..." clauses are separate points', () => {
    const rubric = '1 mark for each cause, up to 3';
    expect(grade('Rising bread prices, the huge debts of the crown, and new ideas about equal rights.', rubric).score).toBe(3);
    expect(grade('The king taxed the poor heavily, and the nobles paid almost nothing.', rubric).score).toBe(2);
    // A year alone is no point of its own.
    expect(grade('The storming of the Bastille in 1789.', rubric).score).toBe(1);
  });

  it('the other degree or an adverb of the opposite is a contrary claim, in any wording of the criterion', () => {
    expect(grade('The molecules vibrate less often.', 'States that the molecules vibrate more frequently (1 mark)').score).toBe(0);
    expect(grade('The molecules vibrate more often.', 'States that the molecules vibrate more frequently (1 mark)').score).toBe(1);
    expect(grade('The ions move more slowly.', 'States that the ions gain energy / move faster (1 mark)').score).toBe(0);
    expect(grade('The ions move more quickly.', 'States that the ions gain energy / move faster (1 mark)').score).toBe(1);
  });

  it('an answer that says a refused wording needs all of the criterion\'s own words', () => {
    const rubric = 'Award 1 mark for each: the gas is bubbled through limewater; the limewater turns milky. Do not accept "turns clear".';
    expect(grade('Bubble the gas through limewater, which turns clear.', rubric).score).toBe(1);
    expect(grade('Bubble the gas through limewater, which turns milky.', rubric).score).toBe(2);
  });

  it('a lowercase "or" between two named things gives each as an alternative, with the words before them', () => {
    const rubric = '1 mark: mentions repeated crop failures or rising grain prices';
    expect(grade('Grain prices were rising fast.', rubric).score).toBe(1);
    expect(grade('The crops failed again and again, repeatedly.', rubric).score).toBe(1);
    expect(grade('The harvest was large.', rubric).score).toBe(0);
    // Sides of two words stay whole: one word of two is too little ("the harvest" for "crop failures").
    expect(grade('The harvest was large.', '1 mark: mentions crop failures or rising prices').score).toBe(0);
    // A clause after the right side belongs to both: the criterion stays whole.
    expect(read('1 mark: names the person or group that opposes the hero').criteria[0]).toMatchObject({ variants: ['names the person or group that opposes the hero'] });
  });

  it('a formula in symbols is met by the answer\'s equation in any arrangement the CAS finds equal', async () => {
    const problem = { problem_type: 'frq', problem_statement: 'A force of 12 N acts on a mass of 3 kg. Calculate the acceleration.', correct_answer: '4 m/s^2', scoring_details: '1 mark: writing F = m × a\n1 mark: the answer 4 m/s^2' };
    expect((await gradeAnswer({ ...problem, user_answer: 'a = F/m = 12/3 = 4 m/s^2' })).score).toBe(2);
    expect((await gradeAnswer({ ...problem, user_answer: 'F = ma so a = 4 m/s^2' })).score).toBe(2);
    expect((await gradeAnswer({ ...problem, user_answer: 'a = F × m = 36' })).score).toBe(0);
  });

  it('"1 pt: for every X" is content unless X is a thing counted ("for every action there is an equal and opposite reaction")', () => {
    expect(read('1 pt: for every action there is an equal and opposite reaction\n1 pt: the forces act on different objects').shape).toEqual([1, 1]);
    expect(read('1 pt: for every correct reason, up to 3').shape).toEqual([{ each: 1, cap: 3 }]);
  });

  it('"Award up to 3 marks:" over marked lines caps them: any three earn their marks', () => {
    const r = read('Award up to 3 marks:\n- names the reactants (1)\n- names the products (1)\n- gives the conditions (1)\n- balances the equation (1)');
    expect(r.max).toBe(3);
    expect(r.shape).toEqual([{ each: 1, cap: 3 }]);
  });

  it('a bracketed figure illustrates a criterion that stands on its own; beside a short one it is the value asked for', () => {
    const rubric = '1 mark: vinegar turns the indicator red, showing it is acidic (pH below 7)\n1 mark: correctly calculates the mean (7)';
    expect(read(rubric).criteria.map((c) => c.text)).toEqual(['vinegar turns the indicator red, showing it is acidic', 'correctly calculates the mean (7)']);
    expect(grade('Vinegar turns the indicator red because it is acidic. The mean is 7.', rubric).score).toBe(2);
    expect(grade('Vinegar turns the indicator red because it is acidic. The mean is 6.', rubric).score).toBe(1);
  });

  it('levels: "links between them" is read from the answer\'s reasoning, and "few or no examples" asks for none', () => {
    const rubric = 'Level 3 (5-6 marks): explains effects on wildlife and on farming, with links between them.\nLevel 2 (3-4 marks): describes effects on wildlife and on farming, with few or no examples.\nLevel 1 (1-2 marks): states one effect.';
    const linked = 'Pesticides kill insects that birds eat, so wildlife declines, and farming loses pollinators because bees die.';
    const listed = 'Pesticides kill insects and birds. Farming loses bees. Wildlife declines on farms.';
    expect(grade(linked, rubric).explanation).toMatch(/level reached "Level 3/);
    const flat = grade(listed, rubric);
    expect(flat.explanation).toMatch(/level reached "Level 2.*not "Level 3 \(5-6 marks\)".*its points are not linked/);
  });

  it('a refusal fires only on all of its words, never by a slip of spelling', () => {
    const rubric = 'Names a sound device: alliteration or assonance (1 mark). Do not accept simile.';
    expect(grade('The line uses sibilance and alliteration.', rubric).score).toBe(1);
    expect(grade('It is a simile.', rubric).score).toBe(0);
    const two = 'States that the heart pumps blood (1 mark). Do not accept "the lungs pump blood".';
    expect(grade('The heart pumps blood to the lungs.', two).score).toBe(1);
  });

  it('lower levels that count the top level\'s AND-joined points are met by that many of them', () => {
    const rubric = '3 marks: names the mouth AND the stomach AND the small intestine / 2 marks: names two of these organs / 1 mark: names one organ';
    expect(grade('Food passes the mouth, the stomach and the small intestine.', rubric).score).toBe(3);
    expect(grade('Food is chewed in the mouth and churned in the stomach.', rubric).score).toBe(2);
    expect(grade('Food is chewed in the mouth.', rubric).score).toBe(1);
    expect(grade('It goes down.', rubric).score).toBe(0);
  });

  it('an answer that gives only a refused wording earns nothing for that criterion', () => {
    const rubric = "States that energy is released (1 mark) (do not accept 'energy is made')\nNames respiration (1 mark)";
    expect(grade('Energy is released by respiration.', rubric).score).toBe(2);
    const refused = grade('Energy is made by respiration.', rubric);
    expect(refused.score).toBe(1);
    expect(refused.explanation).toMatch(/Not accepted: "States that energy is released" — the answer gives "energy is made"/);
    // Saying the accepted wording as well still earns the mark.
    expect(grade('Energy is made and released in respiration.', rubric).score).toBe(2);
  });

  it('accepted alternatives earn the criterion', () => {
    const rubric = 'Names the mitochondrion (accept: powerhouse of the cell)\nheat / thermal energy';
    expect(grade('The powerhouse of the cell gives off thermal energy.', rubric).score).toBe(2);
  });

  it('a heading over more items than marks pays any N of them', () => {
    const rubric = 'Award 2 marks for:\n- osmosis\n- water potential\n- partially permeable membrane\n- concentration gradient';
    expect(grade('Osmosis across a partially permeable membrane down a concentration gradient.', rubric)).toMatchObject({ score: 2, max_score: 2 });
    expect(grade('Osmosis.', rubric).score).toBe(1);
    expect(grade('Diffusion.', rubric).explanation).toMatch(/any 2 of them earn a mark each/);
  });

  it('explains when the stated total differs from the items', () => {
    const g = grade('It is cheap and fast.', 'Marking scheme (5 marks):\n- it is cheap (2)\n- it is fast (2)\n- it is clean (2)');
    // The stated total is max_score (issue 28); the marks are scaled to it and a review is asked.
    expect(g.max_score).toBe(5);
    expect(g.needs_review).toBe(true);
    expect(g.explanation).toMatch(/states 5 marks but its criteria add up to 6/);
  });

  it('a real-looking mixed mark scheme, answered fully and in part', () => {
    const rubric =
      'Marking scheme (6 marks)\n1. Identifies the independent variable (temperature) [1]\n2. Identifies the dependent variable (rate of reaction) [1]\n3. Any two control variables (1 mark each), e.g. concentration, volume, surface area\n4. Explains why a control variable must be kept the same — 2 marks';
    const full = grade(
      'The independent variable is temperature and the dependent variable is the rate of reaction. Keep the concentration and the volume the same, because a control variable must be kept the same for a fair test.',
      rubric,
    );
    expect(full).toMatchObject({ score: 6, max_score: 6 });
    // "independent" is not a misspelling of "dependent"; the sentence that earned one mark is not also a control variable.
    expect(grade('Temperature is the independent variable.', rubric).score).toBe(1);
  });
});

describe('claims said of the wrong thing, the wrong way round, or of a number that lacks the property', () => {
  const scored = (rubric: string, answer: string, question: string) => gradeRubric(answer, rubric, false, question);
  it.each<[string, string, string, number, RegExp | null]>([
    // Contrasting things (same kind, or antonyms) swapped between the parts of the answer.
    ['1 mark: arteries carry blood away from the heart\n1 mark: veins carry blood back to the heart', 'Veins carry blood away from the heart, and arteries carry it back to the heart.', 'Compare arteries and veins.', 0, /says of "veins" what the criterion says of "arteries".*says of "arteries" what the criterion says of "veins"/],
    // A pronoun after a verb the sentence used before stands for what followed it there ("it" is the blood).
    ['Award 1 mark for each correct point (max 2):\n- the right side pumps blood to the lungs\n- the left side pumps blood to the rest of the body', 'The right side pumps blood to the body and the left side pumps it to the lungs.', 'Describe the heart.', 0, /0 distinct item/],
    ['Award 1 mark for each correct point (max 2):\n- the right side pumps blood to the lungs\n- the left side pumps blood to the rest of the body', 'The right side pumps blood to the lungs and the left side pumps it to the rest of the body.', 'Describe the heart.', 2, null],
    ['1 mark: arteries carry blood away from the heart\n1 mark: veins carry blood back to the heart', 'Arteries carry blood away from the heart and veins return it to the heart.', 'Compare arteries and veins.', 2, null],
    ['1 mark: the anode is the positive electrode\n1 mark: the cathode is the negative electrode', 'The cathode is the positive electrode and the anode is the negative electrode.', 'Name the electrodes in electrolysis.', 0, /says of "cathode"/],
    ['1 mark: the anode is the positive electrode\n1 mark: the cathode is the negative electrode', 'The anode is positive and the cathode is negative.', 'Name the electrodes in electrolysis.', 2, null],
    // Things the question sets against each other contrast, whatever WordNet says of them.
    ['1 mark: ROM keeps its contents without power', 'RAM keeps its contents without power, and ROM loses them.', 'Compare RAM and ROM.', 0, /says of "ram" what the criterion says of "rom"/],
    ['1 mark: ROM keeps its contents without power', 'ROM keeps its contents without power, and RAM loses them.', 'Compare RAM and ROM.', 1, null],
    // Compounds of one head contrast whole: "the active voice" against "the passive voice".
    ['1 mark: in the passive voice the object becomes the subject', 'In the active voice the object becomes the subject, and in the passive voice the subject acts.', 'Compare the active and passive voice.', 0, /says of "active" what the criterion says of "passive"/],
    // A compared thing ("more than red light") and a compound's first word ("white blood cells") are not swaps.
    ['1 mark: blue light is scattered more than red light', 'Blue light is scattered by air molecules more than red light is.', 'Why is the sky blue?', 1, null],
    ['1 mark: the immune system makes antibodies', 'White blood cells of the immune system make antibodies.', 'How do vaccines work?', 1, null],
    // Direction: "from A to B" said "from B to A".
    ['1 mark: heat is transferred from the hotter object to the colder object', 'Heat moves from the colder object to the hotter one.', 'Which way does heat flow?', 0, /other way round/],
    ['1 mark: heat is transferred from the hotter object to the colder object', 'Heat moves from the hot object to the cold one.', 'Which way does heat flow?', 1, null],
    // An example of a number with a property arithmetic can check.
    ['1 mark: gives an example of an even number', 'For example 7.', 'What is an even number? Give an example.', 0, /7 is not even/],
    ['1 mark: gives an example of an even number', '14 is even.', 'What is an even number? Give an example.', 1, /14 is even/],
    ['1 mark: gives an example of a multiple of 6', 'One multiple of 6 is 15.', 'What is a multiple? Give an example.', 0, /not multiple of 6/],
    ['1 mark: gives an example of a multiple of 6', 'A multiple of 6 is 42.', 'What is a multiple? Give an example.', 1, null],
    // The opposite of what a verb is a way of ("reduce" is a way to decrease), said where the criterion is.
    ['1 mark: describes one way to reduce air pollution, e.g. catalytic converters, electric cars', 'Electric cars increase air pollution.', 'How can air pollution be reduced?', 0, /"increase", the opposite of "reduce"/],
    ['1 mark: names a cause of air pollution, e.g. car exhausts\n1 mark: describes one way to reduce air pollution, e.g. catalytic converters, electric cars', 'More car exhausts increase pollution, and electric cars help.', 'How can air pollution be reduced?', 2, null],
    // Paired roles (reactants, products) given by the verbs around the named things.
    ['1 mark: names glucose and oxygen as the reactants\n1 mark: names carbon dioxide and water as the products', 'Carbon dioxide and water are used to make glucose and oxygen.', 'Describe aerobic respiration.', 0, null],
    ['1 mark: names glucose and oxygen as the reactants\n1 mark: names carbon dioxide and water as the products', 'Glucose and oxygen react to produce carbon dioxide and water.', 'Describe aerobic respiration.', 2, null],
    // A list joined by "and" is all of it.
    ['1 mark: names the three types of rock: igneous, sedimentary and metamorphic', 'Igneous and sedimentary rocks.', 'What types of rock are there?', 0, null],
    ['1 mark: names the three types of rock: igneous, sedimentary and metamorphic', 'Igneous, sedimentary and metamorphic.', 'What types of rock are there?', 1, null],
    // Qualities listed describe; they are not all required.
    ['1 mark: describes the particles in a gas as far apart, moving quickly and randomly', 'In a gas the particles are far apart and move quickly.', 'Describe the particles in a gas.', 1, null],
    // A cue word quoted as a word is not an example; an empty judgement is not a cause.
    ['1 mark: explains what an adverb is\n1 mark: gives an example of an adverb', "An adverb describes a verb, like 'quickly'.", 'What is an adverb?', 2, null],
    ['1 mark: explains what an adverb is\n1 mark: gives an example of an adverb', "An adverb describes a verb, and the word 'like' is not one.", 'What is an adverb?', 1, /no example given/],
    ['2 marks: names two causes\n1 mark: names one cause', "It's a big problem.", 'What causes soil erosion?', 0, null],
    ['2 marks: names two causes\n1 mark: names one cause', 'Heavy rain and overgrazing.', 'What causes soil erosion?', 2, null],
    // Levels that count: each link of a chain of claims is an item; "with a specific example" needs one.
    ['3 marks: explains both a cause and an effect of deforestation, with a specific example\n2 marks: explains both a cause and an effect\n1 mark: names one cause (e.g. logging)\n0 marks: no relevant content', 'Farmers clear forests for cattle ranching, which releases carbon, and this speeds up climate change, for example in the Amazon.', 'Explain the causes and effects of deforestation.', 3, null],
    ['3 marks: explains both a cause and an effect of deforestation, with a specific example\n2 marks: explains both a cause and an effect\n1 mark: names one cause (e.g. logging)\n0 marks: no relevant content', 'Logging for timber removes trees, so soil is washed away by rain.', 'Explain the causes and effects of deforestation.', 2, null],
    ['3 marks: explains both a cause and an effect of deforestation, with a specific example\n2 marks: explains both a cause and an effect\n1 mark: names one cause (e.g. logging)\n0 marks: no relevant content', 'Logging.', 'Explain the causes and effects of deforestation.', 1, null],
    ['3 marks: explains both a cause and an effect of deforestation, with a specific example\n2 marks: explains both a cause and an effect\n1 mark: names one cause (e.g. logging)\n0 marks: no relevant content', "It's really bad.", 'Explain the causes and effects of deforestation.', 0, null],
    // Another name a short answer accepts meets a named option; a phrasal verb's particle is not content.
    ['1 mark each for any two of: carbon dioxide, methane, water vapour, nitrous oxide', 'CO2 and methane', 'Name two greenhouse gases.', 2, null],
    ['1 mark: speeds up a reaction\n1 mark: is not used up', 'It makes the reaction faster without being used up itself.', 'What does a catalyst do?', 2, null],
    ['1 mark: speeds up a reaction\n1 mark: is not used up', 'It slows down the reaction and is used up.', 'What does a catalyst do?', 0, null],
    // Synonyms come from a word's frequent senses: "digests" is not "support".
    ['support; protection of organs; movement; production of blood cells', 'It digests food.', 'What are the functions of the skeleton?', 0, null],
    ['support; protection of organs; movement; production of blood cells', 'It supports the body and protects organs.', 'What are the functions of the skeleton?', 2, null],
    // A name says what a criterion is about; its other words say what it claims.
    ['1 point: introduced in Congress. 1 point: passed by both the House and the Senate. 1 point: signed by the President.', 'The Supreme Court writes it and the President vetoes it.', 'How does a bill become law in the US?', 0, null],
    ['1 point: introduced in Congress. 1 point: passed by both the House and the Senate. 1 point: signed by the President.', 'It is introduced in Congress, passed by the House and the Senate, and signed by the President.', 'How does a bill become law in the US?', 3, null],
    // An item that only repeats the question is not a reason.
    ['1 mark for each valid reason, up to 3 (e.g. invasions, economic problems, political instability)', 'Because it fell.', 'Why did the Roman Empire fall?', 0, null],
    // Marks written mid-sentence end their points; "Full credit" over a one-mark line is levels.
    ['Award 2 marks: an object stays at rest or keeps moving at constant velocity (1) unless a resultant force acts on it (1)', 'An object at rest stays at rest and a moving object keeps moving at a constant velocity unless a resultant force acts on it.', "State Newton's first law.", 2, null],
    ['Full credit: carries oxygen from the lungs to the body using haemoglobin (2 marks). 1 mark: carries oxygen.', 'They carry oxygen.', 'What do red blood cells do?', 1, /level reached "1 mark/],
    // A negative criterion is met by the answer's denial, wherever the cue stands.
    ['1 mark: explains why a whale is not a fish', 'A whale breathes air with lungs and feeds its young on milk, so it is not a fish.', 'Is a whale a fish? Explain.', 1, null],
  ])('%s / %s → %i', (rubric, answer, question, score, why) => {
    const g = scored(rubric, answer, question);
    expect(g.score, g.explanation).toBe(score);
    if (why) expect(g.explanation).toMatch(why);
  });
});

describe('a rubric that reads as no criterion', () => {
  it.each(['Total: 4', 'Award 3 marks for:', '[6 marks]', 'Marking scheme (3 marks)'])('%s is a 422 naming the accepted layouts', (rubric) => {
    try {
      gradeAnswer({ problem_type: 'frq', problem_statement: 'q', user_answer: 'osmosis', scoring_details: rubric });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(GradingInputError);
      expect((e as GradingInputError).loc).toEqual(['body', 'problem', 'scoring_details']);
      expect((e as Error).message).toMatch(/no criterion.*one criterion per line.*level descriptors.*per-item/);
    }
  });
});

describe('a rubric too large to compare', () => {
  it('more wordings than MAX_WORDINGS is a 422 at scoring_details, decided before any scoring', async () => {
    const rubric = Array.from({ length: MAX_WORDINGS + 1 }, (_, i) => `point ${i}`).join('; ');
    const atLimit = Array.from({ length: MAX_WORDINGS }, (_, i) => `point ${i}`).join('; ');
    expect(() => grade('an answer', rubric)).toThrow(new RegExp(`${MAX_WORDINGS + 1} criteria and alternatives; at most ${MAX_WORDINGS}`));
    expect(() => grade('an answer', atLimit)).not.toThrow();
    // Refused at a fraction of what grading a rubric at the limit costs: the count is checked first.
    await expectCostWithin(() => expect(() => grade('an answer', rubric)).toThrow(), () => grade('an answer', atLimit), 0.25, 'the refusal');
  });
});
