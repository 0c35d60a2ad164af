/**
 * POST /v1/interactives/practice/grade/batch (issue 28): a class's answers to one problem, graded
 * in order and grouped so that a teacher reviews one answer per group; a review scores its group.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let c: Client;
const balance = (cl: Client): Promise<number> => server.svc.ctx.billing.credits.balance(cl.orgId);

beforeAll(async () => {
  server = await startTestServer();
  c = await server.newClient();
});
afterAll(() => server.close());

const PATH = '/v1/interactives/practice/grade/batch';
const math = { problem_type: 'frq', problem_statement: 'Solve 2x + 1 = 7.', correct_answer: 'x = 3' };

describe('grading a batch', () => {
  it('grades every answer in order and groups the same ones, largest group first', async () => {
    const answers = ['x = 3', 'x=2', '3', 'x = 3', 'x = 6/2', 'x = 2', 'x = 3', 'banana'];
    const r = await c.post(PATH, { problem: math, answers });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.grades.map((g: { score: number }) => g.score)).toEqual([1, 0, 1, 1, 1, 0, 1, 0]);
    for (const g of r.body.grades) expect(g).toMatchObject({ confidence: expect.stringMatching(/^(high|low)$/), needs_review: expect.any(Boolean) });
    const groups = r.body.groups as { answer_indexes: number[]; score: number; max_score: number }[];
    expect(groups.flatMap((g) => g.answer_indexes).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (let i = 1; i < groups.length; i++) expect(groups[i]!.answer_indexes.length).toBeLessThanOrEqual(groups[i - 1]!.answer_indexes.length);
    // "x = 3", "3" and "x = 6/2" are one value for the CAS; "x=2" and "x = 2" one wrong one.
    expect(groups[0]).toMatchObject({ score: 1, max_score: 1 });
    expect(groups[0]!.answer_indexes).toEqual(expect.arrayContaining([0, 3, 6]));
    const wrongTwo = groups.find((g) => g.answer_indexes.includes(1))!;
    expect(wrongTwo.answer_indexes).toContain(5);
    expect(r.body.grades[1].group).toBe(r.body.grades[5].group);
  });

  it("groups rubric answers by the criteria they meet, and a teacher's review scores the whole group", async () => {
    const problem = { problem_type: 'frq', problem_statement: 'Explain osmosis.', scoring_details: '- names osmosis (1 mark)\n- water moves across a membrane (1 mark)' };
    const answers = ['Osmosis: water moves across a membrane.', 'osmosis - water moves across a membrane', 'It is diffusion.', 'it is diffusion'];
    const first = await c.post(PATH, { problem, answers });
    expect(first.status).toBe(200);
    const g0 = first.body.grades[0].group;
    expect(first.body.grades[1].group).toBe(g0);
    expect(first.body.grades[2].group).toBe(first.body.grades[3].group);
    const reviewed = await c.post(PATH, { problem, answers, reviews: [{ answer_index: 2, score: 1 }] });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.grades[2]).toMatchObject({ score: 1, reviewed: true, needs_review: false });
    expect(reviewed.body.grades[3]).toMatchObject({ score: 1, reviewed: true });
    expect(reviewed.body.grades[0].reviewed).toBeUndefined();
    expect(reviewed.body.groups.find((g: { answer_indexes: number[] }) => g.answer_indexes.includes(2)).score).toBe(1);
  });

  it('is priced per answer', async () => {
    const before = await balance(c);
    const r = await c.post(PATH, { problem: math, answers: ['x = 3', 'x = 4', 'x = 5'] });
    expect(r.status).toBe(200);
    expect(await balance(c)).toBe(before - 3 * 2_000);
  });

  it('is in the OpenAPI document', async () => {
    const doc = await c.get('/v1/openapi.json');
    expect(doc.body.paths[PATH].post.operationId).toBe('gradeAnswerBatch');
  });
});

describe('bad batches are 422s that change nothing', () => {
  it.each([
    ['more than 500 answers', { problem: math, answers: Array(501).fill('x = 3') }, ['body', 'answers']],
    ['no answers', { problem: math, answers: [] }, ['body', 'answers']],
    ['a review of no answer', { problem: math, answers: ['x = 3'], reviews: [{ answer_index: 4, score: 1 }] }, ['body', 'reviews', 0, 'answer_index']],
    ['a review above max_score', { problem: math, answers: ['x = 3'], reviews: [{ answer_index: 0, score: 3 }] }, ['body', 'reviews', 0, 'score']],
    ['a problem with no reference', { problem: { problem_type: 'frq', problem_statement: 'Why?' }, answers: ['because'] }, ['body', 'problem', 'correct_answer']],
  ])('%s', async (_name, body, loc) => {
    const before = await balance(c);
    const r = await c.post(PATH, body);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(422);
    expect(r.body.detail[0].loc.slice(0, loc.length)).toEqual(loc);
    expect(await balance(c)).toBe(before);
  });
});
