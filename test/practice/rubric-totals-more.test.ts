import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../server/practice/grading/index.ts';
import { type Criterion, parseRubric } from '../../server/practice/grading/rubric/index.ts';
import { rewriteLayouts } from '../../server/practice/grading/rubric/layouts.ts';

/** A criterion as points: a number (concept), {levels: [top…bottom]} or {each, cap}. */
function shape(c: Criterion): unknown {
  if (c.kind === 'concept') return c.points;
  if (c.kind === 'levels') return { levels: c.levels.map((l) => (l.min < l.points ? `${l.min}-${l.points}` : l.points)) };
  return { each: c.per, cap: c.points };
}

const grade = (answer: string, rubric: string) => gradeAnswer({ problem_type: 'frq', problem_statement: 'Explain.', user_answer: answer, scoring_details: rubric });

/** Total layouts of rubric/layouts.ts tuned on set D too (rules.ts, "more total layouts"); cases of their own. */
describe('rubric totals: more layouts', () => {
  it.each<[string, string, unknown[], number]>([
    ['a markdown heading with its marks', '## Marking (5 marks)\n- names the treaty (1 mark)\n- explains two of its terms (4 marks)', [1, 4], 5],
    ['"Marks: 2" on the line after each criterion', 'Reduces the cost of transport\nMarks: 2\nOpens new markets for farmers\nMarks: 1', [2, 1], 3],
    ['"= N" at the end of lines, no total', 'Names the river that floods = 1\nExplains why the delta is fertile = 2\nGives a crop grown there = 1', [1, 2, 1], 4],
    ['dot leaders with a TOTAL line', 'States the speed of light ............ 1\nUses the distance to the Moon ......... 2\nTOTAL ................................. 3', [1, 2], 3],
    ['columns aligned with spaces, a Marks header and a TOTAL row', 'Point                                   Marks\nWater expands when it freezes            1\nCracks widen over many cycles            1\nTOTAL                                    2', [1, 1], 2],
    ['a symbol key: ● = 1 mark, ●● = 2', '● names the composer\n●● explains how the theme returns\n(● = 1 mark)', [1, 2], 3],
    ['"N marks available." footer', 'Names a greenhouse gas (1)\nExplains how it traps heat (1)\nGives a source of it (1)\n2 marks available.', [{ each: 1, cap: 2 }], 2],
    ['"Marks available: N" over a credit-any list', 'Marks available: 2\nCredit any two (1 mark each):\n- lighter\n- cheaper\n- recyclable', [{ each: 1, cap: 2 }], 2],
    ['"(Maximum N: …)" under marked criteria', 'Keeps the fruit fresh\nPoints: 1\nStops it being crushed\nPoints: 1\nShows the brand\nPoints: 1\n(Maximum 2: any two functions)', [{ each: 1, cap: 2 }], 2],
    ['"(1) (x3)": one mark each up to three', 'A property of metals, e.g. conducts heat (1) (x3)', [{ each: 1, cap: 3 }], 3],
    ['"— 1 mark each" after an inline (a) (b) (c) enumeration', '(a) Paris (b) Madrid (c) Lisbon — 1 mark each', [1, 1, 1], 3],
    ['"→ N mark" arrows', 'Names the capital city → 1 mark\nExplains why it grew → 2 marks', [1, 2], 3],
    ['a label before its marks: "Knowledge (2 marks): …", "AO2 (1): …"', 'Knowledge (2 marks): names two causes of the war\nAO2 (1): judges which cause mattered most', [2, 1], 3],
    ['quality labels with falling marks stay levels', 'Excellent (3): explains both causes with evidence\nGood (2): explains one cause\nPoor (1): names a cause', [{ levels: [3, 2, 1] }], 3],
    ['"½ mark each:" over lines with a total', '½ mark each:\nroot — absorbs water\nleaf — makes food\nstem — supports the plant\nflower — makes seeds\nTotal 2 marks', [{ each: 0.5, cap: 2 }], 2],
    ['letter descriptors with falling marks and a 0 line', 'A (2 marks): names the hormone and its gland\nB (1 mark): names the hormone\n0: nothing relevant', [{ levels: [2, 1] }], 2],
  ])('%s', (_name, rubric, expected, max) => {
    const criteria = parseRubric(rubric, false);
    expect(criteria.map(shape)).toEqual(expected);
    expect(grade('something unrelated about cheese', rubric).max_score).toBe(max);
  });

  it('a label is not a word the answer must say', () => {
    expect(grade('The causes were the famine and the tax rise.', 'Knowledge (1 mark): names the famine\nAO1 (1): names the tax rise')).toMatchObject({ score: 2, max_score: 2 });
  });

  it('half marks add up per item', () => {
    const rubric = '½ mark each:\nroot — absorbs water\nleaf — makes food\nstem — supports the plant\nflower — makes seeds\nTotal 2 marks';
    expect(grade('The root absorbs water. The leaf makes food. The stem supports the plant.', rubric)).toMatchObject({ score: 1.5, max_score: 2 });
  });

  it('a ★ line earns its mark when met', () => {
    const rubric = '★ names the enzyme amylase\n★ says it breaks starch into sugar\n(★ = 1 mark)';
    expect(grade('Amylase breaks starch down into sugar.', rubric)).toMatchObject({ score: 2, max_score: 2 });
  });

  it('leaves other lines alone: arithmetic "= N", a single "Points: N", letters without marks, a lone (x2)', () => {
    expect(rewriteLayouts('Shows that x = 2\nChecks the answer')).toBe('Shows that x = 2\nChecks the answer');
    expect(rewriteLayouts('Explains the cause\nPoints: 3')).toBe('Explains the cause\nPoints: 3');
    expect(rewriteLayouts('A: the first option\nB: the second option')).toBe('A: the first option\nB: the second option');
    expect(rewriteLayouts('Multiplies the matrix (x2)')).toBe('Multiplies the matrix (x2)');
    expect(rewriteLayouts('A (1 mark): names X\nB (2 marks): names Y')).toBe('A (1 mark): names X\nB (2 marks): names Y');
  });
});
