/**
 * Topics the offline engine does not cover, through the real HTTP API with a webhook receiver on
 * loopback: each set ends failed with a message that says why, what is covered and how to get the
 * rest; the webhook announces the same failure; and the organization's balance is exactly what it
 * was, less the one status read the test makes (the $0.01-per-problem reservation came back, and
 * neither the failure nor its webhook costs anything).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../helpers/server.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { createSet, STATUS, until } from './helpers.ts';

let server: TestServer;
let rx: Receiver;

beforeAll(async () => {
  server = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '20' } });
  rx = await startReceiver();
});
afterAll(async () => {
  await server.close();
  await rx.close();
});

const COVERAGE = [/The offline engine covers mathematics \(/, /vocabulary of noun categories that WordNet lists/, /definition questions from your own journals \(search_for_problems\)/];
const GET_MORE = [/configure an LLM provider \(set LLM_BASE_URL to an OpenAI-compatible endpoint, LLM_API_KEY and LLM_MODEL\)/, /set search_for_problems to true/];

const UNCOVERED: [string, RegExp][] = [
  ['World War II causes', /^No offline generator covers "World War II causes"\./],
  ['Hamlet themes', /^No offline generator covers "Hamlet themes"\./],
  ['Photosynthesis in plants for grade 7', /^No offline generator covers "Photosynthesis in plants for grade 7"\./],
  ['bonds', /^No offline set for "bonds": "bond" has several unrelated meanings in WordNet .* Ask for one of: "chemical bonds" \(an electrical force linking atoms\); "bond certificates"/],
  ['derivatives of trigonometric functions', /^No offline set for "derivatives of trigonometric functions": the offline engine makes derivatives of polynomials problems, but not about "trigonometric" and "functions"/],
];

async function balance(c: Client): Promise<number> {
  return (await c.get('/v1/usage')).body.credit_balance_micros as number;
}

describe('an uncovered topic through the API', () => {
  it.each(UNCOVERED)('"%s": fails with the reason, the coverage and both ways to get the rest; the balance is unchanged', async (description, reason) => {
    const c = await server.newClient();
    const usage = (await c.get('/v1/usage')).body;
    const statusPrice = Math.round(usage.prices.find((p: any) => p.endpoint === 'GET /interactives/practice/status/{set_id}').usd * 1e6);
    expect(statusPrice).toBeGreaterThan(0);
    const before = usage.credit_balance_micros as number;

    const hook = `/refused/${encodeURIComponent(description)}`;
    const id = await createSet(c, { set_description: description, count: 10, webhook_url: `${rx.url}${hook}` });
    // The failure is learned from the webhook, so that the only paid read is the status below.
    const delivery = await until(() => rx.received.find((m) => m.path === hook), `the webhook of "${description}"`);
    const event = JSON.parse(delivery.body);
    expect(event).toMatchObject({ type: 'practice_set.failed', data: { set_id: id, status: 'failed' } });

    const s = (await c.get(`${STATUS}/${id}`)).body;
    expect(s).toMatchObject({ set_id: id, status: 'failed', success: false, engine: 'offline', completed_problems: 0, total_problems: 10 });
    expect(s.response).toBeUndefined();
    expect(s.message).toMatch(reason);
    for (const part of [...COVERAGE, ...GET_MORE]) expect(s.message).toMatch(part);
    expect(s.message).toMatch(/The reserved credit was refunded\.$/);
    expect(event.data.message).toBe(s.message);

    // Exactly the one status read was paid: no reservation held, nothing settled, nothing for the webhook.
    expect(before - (await balance(c))).toBe(statusPrice);
    const spend = (await c.get('/v1/usage')).body.spend;
    const creates = spend.days.flatMap((d: any) => d.endpoints).filter((e: any) => e.endpoint === 'POST /interactives/practice/create');
    expect(creates).toEqual([]);
    const held = await server.svc.ctx.engine.all<{ status: string }>('SELECT status FROM credit_reservations WHERE org_id = ?', [c.orgId]);
    expect(held.map((r) => r.status)).toEqual(['refunded']);
  });

  it('search_for_problems with no matching journal says so too, and is not charged', async () => {
    const c = await server.newClient();
    const before = await balance(c);
    const hook = '/refused/search';
    const id = await createSet(c, { set_description: 'Hamlet themes', count: 3, search_for_problems: true, webhook_url: `${rx.url}${hook}` });
    const delivery = await until(() => rx.received.find((m) => m.path === hook), 'the webhook');
    expect(JSON.parse(delivery.body).data.message).toMatch(/\(search_for_problems found no journal of this key matching the description\.\)/);
    expect(before - (await balance(c))).toBe(0);
    expect((await c.get(`${STATUS}/${id}`)).body.status).toBe('failed');
  });
});
