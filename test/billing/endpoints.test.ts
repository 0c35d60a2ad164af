import { describe, expect, it } from 'vitest';
import { EndpointCatalog } from '../../server/billing/endpoints.ts';
import { windowAt } from '../../server/billing/limits.ts';
import { ENDPOINT_CATALOG, ENDPOINTS } from '../../server/endpoints.ts';

const catalog = ENDPOINT_CATALOG;
const matchEndpoint = (method: string, path: string) => catalog.match(method, path);

/** Each [method, path, name]: the request is metered under that name. */
function expectNames(table: readonly (readonly [string, string, string])[]): void {
  for (const [method, path, name] of table) expect(matchEndpoint(method, path), `${method} ${path}`).toBe(name);
}

describe('endpoint names', () => {
  it('maps requests to the specification names', () => {
    expectNames([
      ['GET', '/journals/content/abc', 'GET /journals/content/{id}'],
      ['HEAD', '/journals/content/abc/', 'GET /journals/content/{id}'],
      ['GET', '/Journals/List', 'GET /journals/list'],
      ['PATCH', '/journals/editor/edit', 'PATCH /journals/editor/edit'],
      ['DELETE', '/journals/editor/delete/x', 'DELETE /journals/editor/delete/{journal_id}'],
      ['GET', '/journals/realtime/j1', 'GET /journals/realtime/{journal_id}'],
      ['POST', '/interactives/practice/create', 'POST /interactives/practice/create'],
      ['GET', '/video/status/v1', 'GET /video/status/{video_id}'],
      ['GET', '/usage', 'GET /usage'],
    ]);
    for (const [m, p] of [['POST', '/journals/list'], ['GET', '/journals/content/'], ['GET', '/journals/content/a/b'], ['GET', '/nope']]) {
      expect(matchEndpoint(m!, p!), `${m} ${p}`).toBe('OTHER');
    }
  });

  it('accepts any spelling of path parameters when naming an endpoint', () => {
    expect(catalog.byName('GET /journals/content/{journal_id}')).toBe('GET /journals/content/{id}');
    expect(catalog.byName('post  /interactives/practice/create')).toBe('POST /interactives/practice/create');
    expect(catalog.byName('GET /nothing')).toBeUndefined();
  });

  it('prices every endpoint, in integer micro-dollars', () => {
    for (const e of catalog.names) expect(Number.isSafeInteger(catalog.price(e).base), e).toBe(true);
    expect(catalog.priceOf('PATCH /journals/editor/edit', 3)).toBe(130);
    expect(catalog.priceOf('PUT /journals/editor/import_from_markdown', 0.1)).toBe(220);
    expect(catalog.priceOf('PUT /journals/editor/import_from_markdown', 2)).toBe(240);
  });

  it('is built from the declarations: every /v1 endpoint is metered once, and one without a price is refused', () => {
    const v1 = ENDPOINTS.filter((e) => e.path.startsWith('/v1/') && e.auth === 'key');
    expect(catalog.names).toHaveLength(v1.length);
    expect(new Set(catalog.names).size).toBe(v1.length);
    expectNames([
      // A static path wins over a parameter path that would take its segment, whatever the order declared.
      ['GET', '/interactives/flashcards/list', 'GET /interactives/flashcards/list'],
      ['GET', '/interactives/flashcards/d1', 'GET /interactives/flashcards/{deck_id}'],
      ['GET', '/journals/versions/j1/diff', 'GET /journals/versions/{journal_id}/diff'],
      ['GET', '/journals/versions/j1/v1', 'GET /journals/versions/{journal_id}/{version_id}'],
      // Endpoints a hand-kept list once missed have their own names (they shared the unknown-path bucket).
      ['POST', '/journals/editor/session', 'POST /journals/editor/session'],
      ['GET', '/video/download/v1', 'GET /video/download/{video_id}'],
      ['GET', '/video/captions/v1', 'GET /video/captions/{video_id}'],
    ]);
    const unpriced = { ...v1[0]!, path: '/v1/unpriced', price: undefined };
    expect(() => new EndpointCatalog([unpriced])).toThrow(/declares no price/);
  });
});

describe('windows', () => {
  it('ends minute windows at the end of the UTC minute and days at midnight UTC', () => {
    const t = Date.UTC(2030, 0, 1, 23, 59, 59, 1);
    expect(windowAt('minute', t)).toEqual({ start: Date.UTC(2030, 0, 1, 23, 59) / 1000, resetIn: 1 });
    expect(windowAt('day', t)).toEqual({ start: Date.UTC(2030, 0, 1) / 1000, resetIn: 1 });
    expect(windowAt('minute', Date.UTC(2030, 0, 2))).toEqual({ start: Date.UTC(2030, 0, 2) / 1000, resetIn: 60 });
  });

  it('lets overrides win over the tier table', () => {
    expect(catalog.limits('enterprise', 'POST /interactives/practice/grade')).toEqual({ minute: 1000, day: undefined, custom: false });
    expect(catalog.limits('developer', 'POST /video/create', { day: 5 })).toEqual({ minute: 3, day: 5, custom: true });
  });
});
