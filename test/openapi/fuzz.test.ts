/**
 * A property-based fuzzer driven by the OpenAPI document the service serves: for every operation,
 * fast-check makes requests from its path, query, header and body schemas (test/helpers/
 * schema-arbitrary.ts: valid values, with ids of real journals, blocks, versions, sets, decks,
 * videos and keys half of the time, and mutations of them), sends them with an admin key, and
 * checks each answer: never a 5xx, and valid against the document (a documented status, a body
 * matching its schema, Allow / Retry-After where due: test/helpers/openapi.ts). A request the
 * document's own schemas accept is never refused with a 422 on a field for a reason the document
 * does not state (only the checks listed in SEMANTIC_422 may refuse it).
 *
 * Seeded (FUZZ_SEED, default 26) and short by default: FUZZ_RUNS requests per operation (default
 * 8, about 300 requests). `FUZZ_RUNS=200 npx vitest run test/openapi/fuzz.test.ts` runs longer.
 */
import Ajv2020Module, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createApiKey, createOrganization } from '../../server/auth/keys.ts';
import { hostileOf, validOf, type ArbitraryOptions } from '../helpers/schema-arbitrary.ts';
import { Client, serverSuite, type TestServer } from '../helpers/server.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const SEED = Number(process.env.FUZZ_SEED ?? 26);

/**
 * 422s a request valid by the document may still get: checks that need the stored state or the
 * work itself (documented in the operations' texts and in docs/). `loc` joined with dots.
 */
const SEMANTIC_422: { loc: RegExp; type?: RegExp; why: string }[] = [
  { loc: /^body\.webhook_url$/, type: /^url_refused$/, why: 'credentials or a private target (checked by the SSRF guard)' },
  { loc: /^header\.Idempotency-Key$/, why: 'the key was used with another body' },
  { loc: /^body\.(markdown|operations)/, type: /markdown_limit/, why: 'conversion time or nesting limit' },
  { loc: /^body\.operations\.\d+\.params/, why: 'a block payload of the wrong shape for its node type (params are typed by nodeType)' },
  { loc: /^body\.problem/, why: "grading limits (rubric comparisons, worker time) and the problem's own consistency" },
  { loc: /^body$/, type: /^(missing|value_error)$/, why: 'exactly one of journal_id and text, with text not blank' },
  { loc: /^body\.text$/, why: 'text with nothing to read (no sentences for cards or narration)' },
  { loc: /^query\.(from|to)$/, why: 'an unknown version' },
  { loc: /^body/, type: /^(string_unicode|value_error\.json_depth)$/, why: "body-wide rules the document's description states: no lone surrogates, 64 levels of nesting" },
  { loc: /^query\.page_token$/, why: 'an opaque cursor (GET /v1/keys) that this service did not issue' },
  { loc: /^body\.block_id$/, type: /block_not_found/, why: 'a block the journal does not have (comments)' },
  { loc: /^body\.(from|to)$/, type: /out_of_range|empty_range/, why: "a range outside the block's text, or an empty one (comments)" },
  { loc: /^body\.parent_item$/, type: /parent_not_found|cycle/, why: 'a parent that does not exist, or one under the journal itself (nesting)' },
  { loc: /^body\.reviews\.\d+\.answer_index$/, why: 'an index past the answers sent (grade/batch)' },
  { loc: /^body\.engine$/, why: '"llm" without a configured provider (LLM_BASE_URL)' },
];

/** Recorded among an operation's statuses when a 422 came only from SEMANTIC_422's checks. */
const REACHED_DOMAIN_CHECKS = -422;

type Json = Record<string, any>;
let server: TestServer;
let c: Client;
let doc: Json;
const ids: Record<string, (string | number)[]> = {};

const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as unknown as typeof Ajv2020Module.default;
const ajv = new Ajv2020({ strict: false, allErrors: false });
((addFormats as unknown as { default?: unknown }).default ?? addFormats as any)(ajv);

serverSuite({ env: { REFUSED_REQUESTS_PER_MINUTE: '1000000', JOB_CONCURRENCY: '1' } }, async (s) => {
  server = s;
  // An admin key (key management is fuzzed too) of an organization with credit for every paid call.
  const org = await createOrganization(s.svc.ctx.engine, 'fuzz', 'enterprise');
  const { api_key } = await createApiKey(s.svc.ctx.engine, org.id, 'fuzz admin', 'admin');
  c = new Client(s.url, api_key, org.id);
  await s.svc.ctx.billing.credits.set(org.id, 1_000_000_000);
  doc = (await c.get('/v1/openapi.json')).body;
  // Real objects whose ids the fuzzer uses half of the time.
  const journal = await c.importMarkdown('# Fuzz\n\nA paragraph with *marks*.\n\n- one\n- two\n\n```js\ncode\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
  const model = (await c.model(journal)).model;
  const blockIds: string[] = [];
  const walk = (n: any) => {
    if (n?.attrs?.id) blockIds.push(n.attrs.id);
    for (const ch of n?.content ?? []) walk(ch);
  };
  walk(model);
  const version = (await c.post(`/v1/journals/versions/${journal}`, { name: 'fuzz' })).body.version_id;
  const parent = await c.importMarkdown('# Parent\n');
  const comment = (await c.post(`/v1/journals/${journal}/comments`, { block_id: blockIds[1], body: 'fuzz' })).body.comment_id;
  const set = (await c.post('/v1/interactives/practice/create', { set_description: 'linear equations', count: 1 })).body.set_id;
  const deck = (await c.post('/v1/interactives/flashcards/create', { text: 'Mitosis is the division of a cell into two cells. Meiosis makes four cells.' })).body.deck_id;
  // The job worker stops here: renders and generations would take the cores; their endpoints still answer.
  await s.svc.ctx.jobs.stop();
  const video = (await c.post('/v1/video/create', { text: 'Cells divide.' })).body.video_id;
  const key = (await c.post('/v1/keys', { name: 'another' })).body.key_id;
  Object.assign(ids, { journal_id: [journal], nodeId: blockIds, referenceId: blockIds, block_id: blockIds, comment_id: [comment], parent_item: [parent], version_id: [version, 'current'], from: [version], to: [version, 'current'], set_id: [set], deck_id: [deck], video_id: [video], key_id: [key] });
  for (const [k, v] of Object.entries(ids)) expect(v.every((x) => x !== undefined && x !== ''), k).toBe(true);
});

interface Operation {
  method: string;
  path: string;
  op: Json;
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) for (const [method, op] of Object.entries<Json>(item)) out.push({ method: method.toUpperCase(), path, op });
  // Deletions last, so the other operations find the real objects.
  return out.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
}

interface FuzzRequest {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

/** Printable Latin-1 (what fetch can send in a header), spaces and odd bytes included. */
const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((n) => n !== 0x7f).map((n) => String.fromCharCode(n)), minLength: 0, maxLength: 300 });
/** A path segment; `.` and `..` would be resolved away by the URL. */
const segment = fc.oneof(fc.string({ minLength: 1, maxLength: 24 }), fc.constantFrom('%00', 'null', '0', '-1', 'a'.repeat(300), '__proto__', '\u0000', '😀')).filter((s) => s !== '.' && s !== '..');

function requestOf(o: Operation): fc.Arbitrary<FuzzRequest> {
  const opts: ArbitraryOptions = { root: doc, named: Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, fc.constantFrom(...v)])) };
  const params: Json[] = o.op.parameters ?? [];
  const pathArb = fc.tuple(
    ...params.filter((p) => p.in === 'path').map((p) => (ids[p.name] ? fc.oneof(fc.constantFrom(...ids[p.name]!), segment) : segment).map((v) => [p.name, v] as const)),
  );
  const queryArb = fc.tuple(
    ...params
      .filter((p) => p.in === 'query')
      .map((p) => {
        const value = fc.oneof({ weight: 3, arbitrary: validOf(p.schema, opts, p.name) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }).map((v) => [p.name, String(v)] as const);
        return p.required ? value : fc.option(value, { nil: undefined, freq: 3 });
      }),
  );
  const headerArb = fc.tuple(
    ...params
      .filter((p) => p.in === 'header')
      .map((p) => fc.option(fc.oneof({ weight: 3, arbitrary: validOf(p.schema, opts) as fc.Arbitrary<string> }, { weight: 1, arbitrary: headerValue }).map((v) => [p.name, v] as const), { nil: undefined, freq: 2 })),
  );
  const schema = o.op.requestBody?.content?.['application/json']?.schema;
  // Half valid by the document (so the operation is reached, not only refused), half hostile.
  const bodyArb = schema ? fc.oneof(validOf(schema, opts), hostileOf(schema, opts)) : fc.constant(undefined);
  return fc.record({ path: pathArb, query: queryArb, headers: headerArb, body: bodyArb }).map(({ path, query, headers, body }) => ({
    path: path.reduce((p, [name, v]) => p.replace(`{${name}}`, encodeURIComponent(v)), o.path),
    query: Object.fromEntries(query.filter((q): q is readonly [string, string] => q !== undefined)),
    headers: Object.fromEntries(headers.filter((h): h is readonly [string, string] => h !== undefined)),
    body,
  }));
}

/**
 * A request whose kept-alive connection the server closed as it was reused (a race of the two
 * idle timers, seen once on a loaded machine) is sent again, once, on a new connection; a reset
 * on the same request twice is the service's.
 */
async function sendOnce<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
    return send();
  }
}

const compiled = new Map<unknown, ValidateFunction>();
function matches(schema: unknown, value: unknown): boolean {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = ajv.compile({ ...(schema as Json), components: doc.components })));
  return v(value);
}

/** Whether the document's schemas accept the request as sent (then only SEMANTIC_422 may refuse it). */
function documentAccepts(o: Operation, r: FuzzRequest): boolean {
  for (const p of (o.op.parameters ?? []) as Json[]) {
    const v = p.in === 'query' ? r.query[p.name] : p.in === 'header' ? r.headers[p.name] : undefined;
    if (p.in === 'path' || v === undefined) continue;
    // A query string is text: a numeric parameter is read as the number its text spells.
    const numeric = p.schema.type === 'integer' || p.schema.type === 'number';
    const value = numeric && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v) ? Number(v) : v;
    if (!matches(p.schema, value)) return false;
  }
  const schema = o.op.requestBody?.content?.['application/json']?.schema;
  return !schema || matches(schema, r.body);
}

it(`every operation of the document: no 5xx, every answer as documented (${RUNS} requests each, seed ${SEED})`, async () => {
  const ops = operations();
  expect(ops.length).toBeGreaterThanOrEqual(39);
  const statuses = new Map<string, Set<number>>();
  let sent = 0;
  for (const o of ops) {
    const name = `${o.method} ${o.path}`;
    await fc.assert(
      fc.asyncProperty(requestOf(o), async (r) => {
        const qs = new URLSearchParams(r.query).toString();
        const body = r.body === undefined ? undefined : JSON.stringify(r.body);
        // The test client checks the answer against the document (OpenApiMismatch otherwise).
        const res = await sendOnce(() => c.request(o.method, `${r.path}${qs ? `?${qs}` : ''}`, body, r.headers));
        sent++;
        const seen = statuses.get(name) ?? statuses.set(name, new Set()).get(name)!;
        seen.add(res.status);
        expect(res.status, `${name}: ${JSON.stringify(res.body)?.slice(0, 300)}`).toBeLessThan(500);
        if (res.status === 422 && documentAccepts(o, r)) {
          for (const d of res.body.detail as { loc: (string | number)[]; type: string; msg: string }[]) {
            const loc = d.loc.join('.');
            const allowed = SEMANTIC_422.some((s) => s.loc.test(loc) && (!s.type || s.type.test(d.type)));
            expect(allowed, `${name}: the document accepts this request, the service refused ${loc} (${d.type}: ${d.msg})`).toBe(true);
          }
          seen.add(REACHED_DOMAIN_CHECKS);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }
  expect(sent).toBeGreaterThanOrEqual(ops.length * RUNS);
  // Every operation answered something other than a schema refusal at least once: the fuzzer
  // reached its work, or at least the checks that need the stored state (SEMANTIC_422).
  if (RUNS >= 8) for (const [name, seen] of statuses) expect([...seen].some((s) => s < 400 || s === 404 || s === 409 || s === 410 || s === REACHED_DOMAIN_CHECKS), `${name}: ${[...seen]}`).toBe(true);
}, 120_000);

it('the generator is sound: the values it makes as valid are valid against the document', () => {
  // Otherwise the check above (no 422 on a request the document accepts) would test nothing.
  const opts: ArbitraryOptions = { root: doc, named: Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, fc.constantFrom(...v)])) };
  let checked = 0;
  for (const o of operations()) {
    const schemas = [o.op.requestBody?.content?.['application/json']?.schema, ...((o.op.parameters ?? []) as Json[]).filter((p) => p.in !== 'path').map((p) => p.schema)].filter(Boolean);
    for (const schema of schemas) {
      for (const value of fc.sample(validOf(schema, opts), { numRuns: 30, seed: SEED })) {
        expect(matches(schema, value), `${o.method} ${o.path}: ${JSON.stringify(value)?.slice(0, 300)}`).toBe(true);
        checked++;
      }
    }
  }
  expect(checked).toBeGreaterThan(500);
});
