/**
 * Practice sets through the real HTTP API with the offline engine: generation jobs complete with
 * answers verified independently (kas arithmetic, WordNet read directly), every problem's own
 * answer grades full through the grade endpoint, progress and failures are reported, costs are
 * reserved/settled/refunded, and a key reaches only its own sets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookup, synset } from '../../server/practice/lexicon/wordnet.ts';
import { startTestServer, type Client, type TestServer } from '../helpers/server.ts';
import { close, evalExpr, solutions, under } from '../practice/helpers.ts';
import { CREATE, createSet, grade, GRADE, STATUS, waitForSet, wrongAnswer } from './helpers.ts';

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer();
  client = await server.newClient();
});
afterAll(() => server.close());

const norm = (s: string) => s.replace(/−/g, '-').replace(/[×·]/g, '*').replace(/÷/g, '/').replace(/√(\d+)/g, 'sqrt($1)');
const ev = (s: string, vars: Record<string, number> = {}) => evalExpr(norm(s), vars);
const X = [-1.7, 0.3, 2.2];

/** Independent check of one free-response problem; returns false when the template is not known. */
type Check = (statement: string, answer: string) => boolean;

const sides = (eq: string) => eq.split('=').map((s) => s.trim()) as [string, string];

const MATH: [string, string, Check][] = [
  ['grade 8 linear equations', 'offline:one-step-equations+two-step-equations+multi-step-equations', (st, ans) => {
    const [l, r] = sides(/Solve for x: (.+)$/.exec(st)![1]!);
    const x = solutions(ans).x![0]!;
    expect(close(ev(l, { x }), ev(r, { x })), `${st} -> ${ans}`).toBe(true);
    return true;
  }],
  ['quadratic equations', 'offline:quadratic-factoring+quadratic-formula+completing-the-square', (st, ans) => {
    const f = /Solve (?:by factoring: )?(.+) = 0/.exec(st)![1]!;
    const xs = solutions(norm(ans)).x!;
    expect(xs).toHaveLength(2);
    for (const x of xs) expect(close(ev(f, { x }), 0), `${st} -> ${ans}`).toBe(true);
    return true;
  }],
  ['systems of linear equations', 'offline:systems-substitution+systems-elimination', (st, ans) => {
    const eqs = /system by \w+: (.+)\.$/.exec(st)![1]!.split(' and ');
    const s = solutions(ans);
    const vars = { x: s.x![0]!, y: s.y![0]! };
    for (const eq of eqs) {
      const [l, r] = sides(eq);
      expect(close(ev(l, vars), ev(r, vars)), `${st} -> ${ans}`).toBe(true);
    }
    return true;
  }],
  ['derivatives of polynomials', 'offline:derivatives', (st, ans) => {
    const f = /f\(x\) = (.+)\.$/.exec(st)![1]!;
    for (const x of X) {
      const h = 1e-4;
      const numeric = (ev(f, { x: x + h }) - ev(f, { x: x - h })) / (2 * h);
      expect(close(ev(ans, { x }), numeric, 1e-5), `${st} -> ${ans}`).toBe(true);
    }
    return true;
  }],
  ['indefinite integrals of polynomials', 'offline:integrals', (st, ans) => {
    const m = /∫\((.+)\) dx/.exec(st);
    if (!m) return false;
    const F = ans.replace(/\+\s*C\s*$/, '');
    for (const x of X) {
      const h = 1e-4;
      const numeric = (ev(F, { x: x + h }) - ev(F, { x: x - h })) / (2 * h);
      expect(close(numeric, ev(m[1]!, { x }), 1e-5), `${st} -> ${ans}`).toBe(true);
    }
    return true;
  }],
  ['order of operations', 'offline:arithmetic', (st, ans) => {
    expect(close(ev(/Evaluate (.+)\.$/.exec(st)![1]!), ev(ans)), `${st} -> ${ans}`).toBe(true);
    return true;
  }],
  ['adding and subtracting fractions', 'offline:fraction-addition+fraction-subtraction', (st, ans) => {
    expect(close(ev(/^(?:Add|Subtract): (.+)\. Give/.exec(st)![1]!), ev(ans)), `${st} -> ${ans}`).toBe(true);
    return true;
  }],
  ['laws of exponents', 'offline:exponents', (st, ans) => {
    const e = /Simplify (.+)\. Write/.exec(st)![1]!;
    for (const x of [1.3, 2.1]) expect(close(ev(e, { x }), ev(ans, { x }), 1e-6), `${st} -> ${ans}`).toBe(true);
    return true;
  }],
  ['percent of a number', 'offline:percent-of', (st, ans) => {
    const v = Number(ans.replace('%', ''));
    let m;
    if ((m = /^(\S+) is what percent of (\S+)\?/.exec(st))) expect(close(v, (Number(m[1]) / Number(m[2])) * 100, 1e-3), st).toBe(true);
    else if ((m = /^What is (\S+)% of (\S+)\?/.exec(st))) expect(close(v, (Number(m[1]) * Number(m[2])) / 100, 1e-3), st).toBe(true);
    else if ((m = /changes from (\S+) to (\S+)\./.exec(st))) expect(close(v, ((Number(m[2]) - Number(m[1])) / Number(m[1])) * 100, 1e-3), st).toBe(true);
    else if ((m = /costs \$(\S+)\. Its price rises by (\S+)%/.exec(st))) expect(close(Number(ans.replace('$', '')), Number(m[1]) * (1 + Number(m[2]) / 100), 1e-3), st).toBe(true);
    else return false;
    return true;
  }],
];

const VOCAB: [string, string, string][] = [
  ['vocabulary: cell organelles', 'offline:vocabulary:organelle', 'organelle'],
  ['planets of the solar system', 'offline:vocabulary:planet', 'planet'],
  ['chemical elements vocabulary', 'offline:vocabulary:chemical element', 'chemical element'],
];

describe('offline practice sets through the API', () => {
  it.each(MATH)('"%s" completes as %s with independently verified answers', async (description, engine, check) => {
    const id = await createSet(client, { set_description: description, count: 8, problem_type: 'frq' });
    const s = await waitForSet(client, id);
    expect(s.status, s.message).toBe('completed');
    expect(s).toMatchObject({ set_id: id, success: true, total_problems: 8, completed_problems: 8, engine });
    expect(s.response).toMatchObject({ set_id: id, engine, cost: 0.08 });
    expect(s.response.set_name.length).toBeGreaterThan(3);
    expect(s.response.problems).toHaveLength(8);
    let verified = 0;
    for (const p of s.response.problems) {
      expect(p).toMatchObject({ problem_type: 'frq', difficulty: 'medium', answer_choices: {}, include_graph: false });
      if (check(p.problem_statement, p.correct_answer)) verified++;
    }
    // Every statement matches one of the independent checks, so no problem goes unverified.
    expect(verified).toBe(8);
  });

  it.each(VOCAB)('"%s" completes as %s with WordNet terms and glosses', async (description, engine, root) => {
    const id = await createSet(client, { set_description: description, count: 6, problem_type: 'frq', difficulty: 'easy' });
    const s = await waitForSet(client, id);
    expect(s.status, s.message).toBe('completed');
    expect(s.engine).toBe(engine);
    for (const p of s.response.problems) {
      const gloss = /defined as: "(.*)"\?$/.exec(p.problem_statement)![1];
      expect(under(p.correct_answer, root), `${p.correct_answer} under ${root}`).toBe(true);
      // The gloss is WordNet's own, with the term itself blanked out (____) where it occurs in it.
      const glosses = lookup(p.correct_answer).map((o) => synset(o).definition);
      const pattern = new RegExp(`^${gloss!.split('____').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?')}$`, 'i');
      expect(glosses.some((g) => pattern.test(g)), `${p.correct_answer}: ${gloss}`).toBe(true);
    }
  });

  it.each([...MATH.slice(0, 6).map((m) => m[0]), ...VOCAB.slice(0, 2).map((v) => v[0])])(
    '"%s" (mixed): each problem\'s own correct_answer grades full through the grade endpoint, a wrong answer does not',
    async (description) => {
      const id = await createSet(client, { set_description: description, count: 6, difficulty: 'hard' });
      const s = await waitForSet(client, id);
      expect(s.status, s.message).toBe('completed');
      expect(s.response.problems.map((p: any) => p.problem_type)).toEqual(['mcq', 'frq', 'select_all', 'mcq', 'frq', 'select_all']);
      for (const p of s.response.problems) {
        expect(p.difficulty).toBe('hard');
        const full = await grade(client, { ...p, user_answer: p.correct_answer });
        expect(full.score, `${p.problem_statement} / ${p.correct_answer}`).toBe(full.max_score);
        expect(full.engine).toBe('offline');
        const wrongValue = wrongAnswer(p, s.response.problems);
        const wrong = await grade(client, { ...p, user_answer: wrongValue });
        expect(wrong.score, `${p.problem_statement} / ${wrongValue}`).toBeLessThan(wrong.max_score);
      }
    },
  );

  it('honours problem_type, count and set_name; defaults are mixed, 5, medium', async () => {
    const a = await waitForSet(client, await createSet(client, { set_description: 'fractions', problem_type: 'select_all', count: 2, set_name: 'My fractions' }));
    expect(a.response.set_name).toBe('My fractions');
    expect(a.response.problems.map((p: any) => p.problem_type)).toEqual(['select_all', 'select_all']);
    const b = await waitForSet(client, await createSet(client, { set_description: 'linear equations' }));
    expect(b.total_problems).toBe(5);
    expect(b.response.problems.map((p: any) => p.problem_type)).toEqual(['mcq', 'frq', 'select_all', 'mcq', 'frq']);
    expect(b.response.problems.every((p: any) => p.difficulty === 'medium')).toBe(true);
  });
});

describe('grading through the API', () => {
  it('math by symbolic equivalence', async () => {
    const g = await grade(client, { problem_type: 'frq', problem_statement: 'Simplify', user_answer: '3x^2+2', correct_answer: '2 + 3*x^2' });
    expect(g).toMatchObject({ success: true, score: 1, max_score: 1, method: 'math', engine: 'offline' });
    expect(g.explanation.length).toBeGreaterThan(5);
    const bad = await grade(client, { problem_type: 'frq', problem_statement: 'Simplify', user_answer: '3x^2+3', correct_answer: '2 + 3*x^2' });
    expect(bad.score).toBe(0);
    const roots = await grade(client, { problem_type: 'frq', problem_statement: 'Solve', user_answer: 'x = 3 or x = 2', correct_answer: 'x = 2, x = 3' });
    expect(roots.score).toBe(roots.max_score);
  });

  it('rubric with partial credit and negation', async () => {
    const problem = {
      problem_type: 'frq',
      problem_statement: 'Describe photosynthesis.',
      correct_answer: 'Plants make glucose from light.',
      scoring_details: '- uses light energy (2 pts)\n- produces glucose (1 pt)\n- releases oxygen (1 pt)',
    };
    const full = await grade(client, { ...problem, user_answer: 'Plants use light energy to produce glucose and release oxygen.' });
    expect(full).toMatchObject({ score: 4, max_score: 4, method: 'rubric' });
    const partial = await grade(client, { ...problem, user_answer: 'It uses light energy to make sugar.' });
    expect(partial.score).toBeGreaterThan(0);
    expect(partial.score).toBeLessThan(4);
    expect(partial.missed.length).toBeGreaterThan(0);
    const negated = await grade(client, { ...problem, user_answer: 'Plants do not use light energy; they produce glucose and release oxygen.' });
    expect(negated.score).toBe(2);
    expect(negated.explanation).toMatch(/contradict/i);
  });

  it('choice problems: mcq exact, select_all partial', async () => {
    const choices = { A: '1', B: '2', C: '3', D: '4' };
    expect((await grade(client, { problem_type: 'mcq', problem_statement: 'pick', user_answer: 'b', correct_answer: 'B', answer_choices: choices })).score).toBe(1);
    const sa = await grade(client, { problem_type: 'select_all', problem_statement: 'pick', user_answer: 'A', correct_answer: 'A,C', answer_choices: choices });
    expect(sa).toMatchObject({ score: 0.5, max_score: 1, method: 'choice' });
  });

  it('422 in FastAPI shape for missing or invalid input', async () => {
    const cases: [unknown, (string | number)[]][] = [
      [{ problem: { problem_type: 'frq', problem_statement: 'q' } }, ['body', 'problem', 'user_answer']],
      [{ problem: { problem_type: 'frq', problem_statement: 'q', user_answer: 'a' } }, ['body', 'problem', 'correct_answer']],
      [{ problem: { problem_type: 'mcq', problem_statement: 'q', user_answer: 'A', correct_answer: 'A' } }, ['body', 'problem', 'answer_choices']],
      [{}, ['body', 'problem']],
      [{ problem: { problem_type: 'frq', problem_statement: 'q', user_answer: 'a', correct_answer: '1' }, engine: 'llm' }, ['body', 'engine']],
    ];
    for (const [body, loc] of cases) {
      const r = await client.post(GRADE, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
      expect(typeof r.body.detail[0].msg).toBe('string');
    }
    const malformed = await client.post(GRADE, '{"problem": ');
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(['body']);
  });
});

describe('set lifecycle', () => {
  it('422 for bad create input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'set_description'],
      [{ set_description: '   ' }, 'set_description'],
      [{ set_description: 'fractions', count: 0 }, 'count'],
      [{ set_description: 'fractions', count: 16 }, 'count'],
      [{ set_description: 'fractions', count: 2.5 }, 'count'],
      [{ set_description: 'fractions', problem_type: 'essay' }, 'problem_type'],
      [{ set_description: 'fractions', difficulty: 'extreme' }, 'difficulty'],
      [{ set_description: 'fractions', search_for_problems: 'yes' }, 'search_for_problems'],
      [{ set_description: 'fractions', webhook_url: 'not a url' }, 'webhook_url'],
      [{ set_description: 'fractions', engine: 'llm' }, 'engine'],
    ];
    for (const [body, field] of cases) {
      const r = await client.post(CREATE, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', field]);
    }
  });

  it('a topic no generator covers fails honestly, names the engine and the LLM settings, and refunds', async () => {
    const before = (await client.get('/v1/usage')).body.credit_balance_micros;
    const id = await createSet(client, { set_description: 'history of the roman empire', count: 10 });
    const s = await waitForSet(client, id);
    expect(s).toMatchObject({ status: 'failed', success: false, engine: 'offline', completed_problems: 0, total_problems: 10 });
    expect(s.response).toBeUndefined();
    expect(s.message).toContain('No offline generator covers');
    for (const v of ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL']) expect(s.message).toContain(v);
    const after = (await client.get('/v1/usage')).body.credit_balance_micros;
    // Only the reads (usage, status polls) were paid; the $0.10 reservation came back.
    expect(before - after).toBeLessThan(10_000);
  });

  it('a completed set costs its price; the balance drops by exactly that plus the reads', async () => {
    const c = await server.newClient();
    const balance = async () => (await c.get('/v1/usage')).body.credit_balance_micros as number;
    const b0 = await balance(); // the usage read itself is free (price 0)
    const id = await createSet(c, { set_description: 'derivatives', count: 3 });
    const s = await waitForSet(c, id, (x) => x.status !== 'pending');
    expect(s.response.cost).toBe(0.03);
    const polls = await c.get(`${STATUS}/${id}`); // one more paid read, known price 10 micros
    expect(polls.status).toBe(200);
    const b1 = await balance();
    const reads = b0 - b1 - 30_000;
    expect(reads % 10).toBe(0);
    expect(reads).toBeGreaterThanOrEqual(20);
  });

  it('402 when the balance cannot cover the reservation; nothing is created', async () => {
    const c = await server.newClient();
    await server.svc.ctx.billing.credits.set(c.orgId, 5_000);
    const r = await c.post(CREATE, { set_description: 'fractions', count: 1 });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ required: 0.01 });
    const n = await server.svc.ctx.engine.get<{ n: number }>('SELECT COUNT(*) AS n FROM practice_sets WHERE org_id = ?', [c.orgId]);
    expect(n!.n).toBe(0);
  });

  it('a set belongs to the key that created it: other keys (even of the same org) and unknown ids get 404', async () => {
    const id = await createSet(client, { set_description: 'exponents', count: 1 });
    await waitForSet(client, id);
    const other = await server.newClient();
    const sameOrg = await server.sameOrgClient(client);
    for (const c of [other, sameOrg]) {
      const r = await c.get(`${STATUS}/${id}`);
      expect(r.status).toBe(404);
      expect(typeof r.body.error).toBe('string');
    }
    const unknown = await client.get(`${STATUS}/00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Practice set not found' });
    expect((await new (client.constructor as any)(server.url, undefined, '').get(`${STATUS}/${id}`)).status).toBe(401);
  });

  it('status_error when the stored record of a set is unreadable or inconsistent', async () => {
    const db = server.svc.ctx.engine;
    const a = await createSet(client, { set_description: 'fractions', count: 2 });
    await waitForSet(client, a);
    await db.run('UPDATE practice_problems SET problem = ? WHERE set_id = ? AND idx = 1', ['{"problem_type": "mcq", "oops', a]);
    const s = await waitForSet(client, a, () => true);
    expect(s).toMatchObject({ set_id: a, status: 'status_error', success: false, total_problems: 2 });
    expect(s.message).toMatch(/cannot be determined/);
    expect(s.response).toBeUndefined();

    const b = await createSet(client, { set_description: 'fractions', count: 1 });
    await waitForSet(client, b);
    const row = (await db.get<{ job_id: string }>('SELECT job_id FROM practice_sets WHERE id = ?', [b]))!;
    await db.run("UPDATE practice_sets SET status = 'pending' WHERE id = ?", [b]);
    await db.run('DELETE FROM jobs WHERE id = ?', [row.job_id]);
    const t = await waitForSet(client, b, () => true);
    expect(t.status).toBe('status_error');
    expect(t.message).toMatch(/job is missing/);

    const c = await createSet(client, { set_description: 'fractions', count: 1 });
    await waitForSet(client, c);
    await db.run("UPDATE practice_sets SET status = 'weird' WHERE id = ?", [c]);
    expect((await waitForSet(client, c, () => true)).status).toBe('status_error');
  });
});

describe('search_for_problems: the caller\'s own journals as context (full-text search)', () => {
  it('makes questions from the key\'s own matching journals, never from another key\'s', async () => {
    const mine = await server.newClient();
    const stranger = await server.newClient();
    await mine.importMarkdown(
      '# Biology notes\n\nPhotosynthesis is the process by which plants turn light, water and carbon dioxide into glucose.\n\nOsmosis is the diffusion of water across a semipermeable membrane.\n\nA catalyst is a substance that speeds up a reaction without being used up.\n\nDiffusion is the movement of particles from high to low concentration.\n',
      'Biology',
    );
    await mine.importMarkdown('# Shopping\n\nMilk is a drink that cows produce in large amounts.\n', 'Groceries');
    await stranger.importMarkdown('# Biology secrets\n\nMitosis is the secret biology word only the stranger knows about.\n', 'Stranger biology');
    const id = await createSet(mine, { set_description: 'biology revision', count: 6, search_for_problems: true });
    const s = await waitForSet(mine, id);
    expect(s.status, s.message).toBe('completed');
    expect(s.engine).toBe('offline:context');
    const text = JSON.stringify(s.response.problems);
    expect(text).toMatch(/Photosynthesis|Osmosis|catalyst/);
    expect(text).not.toContain('Mitosis');
    expect(text).not.toContain('Milk');
    // One question per sentence (the select-all problems combine them), each naming its journal.
    const asked = s.response.problems.filter((p: any) => p.problem_type !== 'select_all').map((p: any) => p.problem_statement);
    expect(new Set(asked).size).toBe(asked.length);
    for (const p of s.response.problems) {
      expect(p.explanation).toMatch(/Source: your journal "(Biology|Biology notes)"/);
      const g = await grade(mine, { ...p, user_answer: p.correct_answer });
      expect(g.score).toBe(g.max_score);
    }
  });

  it('sees edits (re-indexes changed journals) and forgets deleted journals', async () => {
    const c = await server.newClient();
    const jid = await c.importMarkdown('# Chemistry\n\nPlaceholder text about chemistry.\n', 'Chemistry');
    const first = await waitForSet(c, await createSet(c, { set_description: 'chemistry revision', count: 2, search_for_problems: true }));
    expect(first.status).toBe('failed');
    expect(first.message).toContain('search_for_problems found 1 journal(s) matching the description, but none holds a sentence of the form "X is Y"');
    const model = await c.model(jid);
    const lastId = model.model.content.at(-1).attrs.id;
    const edit = await c.edit(jid, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'An isotope is a form of an element with a different number of neutrons.' }], referenceId: lastId }]);
    expect(edit.status).toBe(200);
    const second = await waitForSet(c, await createSet(c, { set_description: 'chemistry revision', count: 1, problem_type: 'frq', search_for_problems: true }));
    expect(second.status, second.message).toBe('completed');
    expect(JSON.stringify(second.response.problems)).toContain('isotope');
    // One sentence is one question: two would ask it twice, so that set is refused (and refunded).
    const twice = await waitForSet(c, await createSet(c, { set_description: 'chemistry revision', count: 2, problem_type: 'frq', search_for_problems: true }));
    expect(twice.status).toBe('failed');
    expect(twice.message).toMatch(/give only 1 distinct question\(s\) where this set needs 2/);
    expect((await c.del(`/v1/journals/editor/delete/${jid}`)).status).toBe(200);
    const engine = server.svc.ctx.engine;
    const ts = engine.dialect.textSearch;
    const hits = await engine.get<{ n: number }>(`SELECT COUNT(*) AS n FROM (${ts.matches('journal_search', [1, 1])}) m`, [ts.anyWord(['isotope'])]);
    expect(hits!.n).toBe(0);
    const third = await waitForSet(c, await createSet(c, { set_description: 'chemistry revision', count: 2, search_for_problems: true }));
    expect(third.status).toBe('failed');
  });
});
