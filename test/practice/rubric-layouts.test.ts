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

/** Layouts whose stated total max_score must equal (rubric/layouts.ts, rubric/markers.ts, rubric/parse.ts). */
describe('rubric totals in more layouts', () => {
  it.each<[string, string, unknown[], number]>([
    [
      'analytic grid: one levels criterion per row, worth its top column',
      '| Aspect | 3 marks | 2 marks | 1 mark | 0 marks |\n|---|---|---|---|---|\n| Cause | two causes linked to the outcome | two causes | one cause | none |\n| Effect | an effect with evidence | an effect | a vague effect | - |',
      [{ levels: [3, 2, 1] }, { levels: [3, 2, 1] }],
      6,
    ],
    [
      'level | marks | descriptor table with a 0 row',
      '| Band | Points | What the answer does |\n|---|---|---|\n| 2 | 3-4 | compares both poems with quotations |\n| 1 | 1-2 | describes one poem |\n| 0 | 0 | nothing relevant |',
      [{ levels: ['3-4', '1-2'] }],
      4,
    ],
    ['records: "- criterion:" over indented "points:"', '- criterion: names the capital city\n  points: 1\n- criterion: explains why the river mattered for trade\n  points: 3', [1, 3], 4],
    ['labelled strands "Name: N marks — …"', 'Recall: 1 mark — states the law of reflection\nUse: 2 marks — applies it to the periscope diagram', [1, 2], 3],
    ['"Marks: 2 + 1 + 1" over lines, one of them marked', 'Marks: 2 + 1 + 1\n• explains how the lever multiplies force (2)\n• names the pivot\n• names the load', [2, 1, 1], 4],
    ['"(2 marks per ✓)" under ticked lines', '✓ names the enzyme\n✓ names its substrate\n(2 marks per ✓)', [2, 2], 4],
    ['"N/M —" descriptors with a 0/M line', '2/2 — both the cause and the effect of the flood\n1/2 — the cause or the effect\n0/2 — neither', [{ levels: [2, 1] }], 2],
    ['bands with a bare "0:" line', 'Band 3 (3 marks): a full account with dates\nBand 2 (2 marks): a partial account\nBand 1 (1 mark): one fact\n0: no relevant fact', [{ levels: [3, 2, 1] }], 3],
    ['"Any 3 × 2 marks:" heading over options', 'Any 3 × 2 marks:\ncheaper energy\nless pollution\nmore jobs\nenergy security', [{ each: 2, cap: 6 }], 6],
    ['a ; list with "— 1 pt each (max 2 pts)"', 'wind; solar; hydro; tidal — 1 pt each (max 2 pts)', [{ each: 1, cap: 2 }], 2],
    ['"1 mark for each X, max 2: e.g. A; B" is one per-item criterion with examples', '1 mark for each cause named, max 2: e.g. drought; war; poor harvests.\n1 mark for each effect explained, max 2.', [{ each: 1, cap: 2 }, { each: 1, cap: 2 }], 4],
    ['"For each of two X:" over marked points: the marks are per thing', 'For each of two landforms: 1 mark for naming it and 2 marks for explaining how it forms.', [2, 4], 6],
    ['prose opening with "Up to 4 marks."', 'Up to 4 marks. The answer explains that the treaty ended the war and redrew borders.', [4], 4],
    ['prose closing with "Maximum 2 marks."', 'A good answer says that plants need light to make sugar. Maximum 2 marks.', [2], 2],
  ])('%s', (_name, rubric, expected, max) => {
    const criteria = parseRubric(rubric, false);
    expect(criteria.map(shape)).toEqual(expected);
    expect(criteria.reduce((s, c) => s + c.points, 0)).toBe(max);
    expect(grade('something unrelated about cheese', rubric).max_score).toBe(max);
  });

  it('a grid row earns the column its words meet', () => {
    const rubric = '| Point | 2 marks | 1 mark | 0 marks |\n|---|---|---|---|\n| Photosynthesis | light energy converted into chemical energy in glucose | light mentioned | none |';
    expect(grade('Light energy is converted into chemical energy stored in glucose.', rubric).score).toBe(2);
    expect(grade('It needs light.', rubric).score).toBe(1);
  });

  it('leaves other lines alone: a "points:" line without a record above, a heading with a colon, plain tables', () => {
    expect(rewriteLayouts('Points: 4\nnames X\nnames Y')).toBe('Points: 4\nnames X\nnames Y');
    expect(rewriteLayouts('Award 2 marks for:\n- A\n- B')).toBe('Award 2 marks for:\n- A\n- B');
    expect(rewriteLayouts('| Criterion | Points |\n|---|---|\n| names X | 1 |')).toBe('| Criterion | Points |\n|---|---|\n| names X | 1 |');
  });

  it('no written total: max_score is the convention and the grade asks for review', () => {
    const g = grade('The treaty ended the war.', 'The answer explains that the treaty ended the war and redrew borders.');
    expect(g.needs_review).toBe(true);
    expect(g.confidence).toBe('low');
  });
});

/** When a rubric grade is sure (rubric/score.ts, rubric/match.ts; rules.ts "unread words", "derived forms"). */
describe('rubric confidence', () => {
  const rubric = '- names the enzyme amylase (1)\n- states that it breaks starch into sugar (1)';
  const ask = (answer: string) => gradeAnswer({ problem_type: 'frq', problem_statement: 'What does saliva do to bread?', user_answer: answer, scoring_details: rubric });

  it('every criterion met by its own words: high', () => {
    const g = ask('The enzyme amylase breaks starch into sugar.');
    expect([g.score, g.confidence]).toEqual([2, 'high']);
  });

  it('a criterion missed with none of its words is sure only when the answer says nothing else', () => {
    expect(ask('The enzyme amylase.')).toMatchObject({ score: 1, confidence: 'high' });
    // "turns the long chains into sweet molecules" may be the second criterion in other words.
    expect(ask('The enzyme amylase turns the long chains into sweet molecules.')).toMatchObject({ score: 1, confidence: 'low', needs_review: true });
  });

  it("a derived form's other words are a WordNet link: met, but low", () => {
    const g = gradeAnswer({ problem_type: 'frq', problem_statement: 'Why do people keep buying bread when its price rises?', user_answer: 'There is demand for it.', scoring_details: 'is a necessity (1)' });
    expect(g.confidence).toBe('low');
  });
});
