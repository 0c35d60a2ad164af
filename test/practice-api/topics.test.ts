/**
 * GET /v1/interactives/practice/topics through the real server, and a few descriptions of issue 29
 * made into sets through the real HTTP API: each set is made of the sub-topic named, read from
 * the set's engine (`offline:<ids>`), not from the text; a topic outside the catalogue fails and
 * names the nearest sub-topics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../server/practice/offline/school/catalogue.ts';
import { startTestServer, type Client, type TestServer } from '../helpers/server.ts';
import { createSet, waitForSet } from './helpers.ts';

const TOPICS = '/v1/interactives/practice/topics';
let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer();
  client = await server.newClient();
});
afterAll(() => server.close());

describe('GET /v1/interactives/practice/topics', () => {
  it('lists every sub-topic with its levels and example descriptions, free of charge', async () => {
    const before = (await client.get('/v1/usage')).body.credit_balance_micros as number;
    const r = await client.get(TOPICS);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, count: CATALOGUE.length });
    expect(r.body.topics).toHaveLength(CATALOGUE.length);
    expect(new Set(r.body.topics.map((t: any) => t.id)).size).toBe(CATALOGUE.length);
    for (const t of r.body.topics) {
      expect(Object.keys(t.levels).sort()).toEqual(['easy', 'hard', 'medium']);
      expect(t.examples.length).toBeGreaterThan(0);
      expect(t.name.length).toBeGreaterThan(3);
      expect(t.area_name.length).toBeGreaterThan(3);
    }
    expect(r.body.topics.map((t: any) => t.id)).toEqual(expect.arrayContaining(['fraction-addition', 'one-step-equations', 'pythagorean-theorem', 'circles', 'mean', 'metric-conversion']));
    const after = (await client.get('/v1/usage')).body.credit_balance_micros as number;
    expect(after).toBe(before);
    const price = (await client.get('/v1/usage')).body.prices.find((p: any) => p.endpoint === 'GET /interactives/practice/topics');
    expect(price).toMatchObject({ usd: 0 });
  });

  it('needs a key; another method is a 405', async () => {
    const r = await fetch(`${server.url}${TOPICS}`);
    expect(r.status).toBe(401);
    expect((await client.post(TOPICS, {})).status).toBe(405);
  });
});

/** Description, the engine its set must have (exactly those sub-topics). */
const ASKED: [string, string][] = [
  ['Adding fractions with unlike denominators', 'offline:fraction-addition'],
  ['Dividing decimals', 'offline:decimal-division'],
  ['Solving one-step equations', 'offline:one-step-equations'],
  ['Factoring quadratics', 'offline:factor-trinomials'],
  ['Ratios and rates', 'offline:rates+ratios'],
  ['Area of a circle', 'offline:circles'],
  ['Pythagorean theorem', 'offline:pythagorean-theorem'],
  ['Systems of linear equations', 'offline:systems-substitution+systems-elimination'],
];

describe('descriptions through the real server', () => {
  it.each(ASKED)('"%s" makes a set of %s only', async (description, engine) => {
    const id = await createSet(client, { set_description: description, count: 6, problem_type: 'mixed' });
    const s = await waitForSet(client, id);
    expect(s.status, s.message).toBe('completed');
    expect(s.engine).toBe(engine);
    expect(s.response.problems).toHaveLength(6);
    const keys = s.response.problems.map((p: any) => `${p.problem_statement}|${Object.values(p.answer_choices).join('|')}`);
    expect(new Set(keys).size).toBe(6);
  });

  it('a topic outside the catalogue fails, names the nearest sub-topics, and is not a vocabulary set', async () => {
    const s = await waitForSet(client, await createSet(client, { set_description: 'surface area of cylinders', count: 4 }));
    expect(s.status).toBe('failed');
    expect(s.message).toMatch(/^No offline set for "surface area of cylinders"/);
    expect(s.message).toMatch(/The nearest sub-topics it makes: .*(Volume|Area of polygons|Circles)/);
    expect(s.message).toMatch(/The reserved credit was refunded\.$/);
  });
});
