import { describe, expect, it } from 'vitest';
import { EndpointCatalog } from '../../server/billing/endpoints.ts';
import { windowAt } from '../../server/billing/limits.ts';
import { ENDPOINT_CATALOG, ENDPOINTS } from '../../server/endpoints.ts';

const catalog = ENDPOINT_CATALOG;
const matchEndpoint = (method: string, path: string) => catalog.match(method, path);

describe('endpoint names', () => {
  it('maps requests to the specification names', () => {
    expect(matchEndpoint('GET', '/journals/content/abc')).toBe('GET /journals/content/{id}');
    expect(matchEndpoint('HEAD', '/journals/content/abc/')).toBe('GET /journals/content/{id}');
    expect(matchEndpoint('GET', '/Journals/List')).toBe('GET /journals/list');
    expect(matchEndpoint('PATCH', '/journals/editor/edit')).toBe('PATCH /journals/editor/edit');
    expect(matchEndpoint('DELETE', '/journals/editor/delete/x')).toBe('DELETE /journals/editor/delete/{journal_id}');
    expect(matchEndpoint('GET', '/journals/realtime/j1')).toBe('GET /journals/realtime/{journal_id}');
    expect(matchEndpoint('POST', '/interactives/practice/create')).toBe('POST /interactives/practice/create');
    expect(matchEndpoint('GET', '/video/status/v1')).toBe('GET /video/status/{video_id}');
    expect(matchEndpoint('GET', '/usage')).toBe('GET /usage');
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
    // A static path wins over a parameter path that would take its segment, whatever the order declared.
    expect(matchEndpoint('GET', '/interactives/flashcards/list')).toBe('GET /interactives/flashcards/list');
    expect(matchEndpoint('GET', '/interactives/flashcards/d1')).toBe('GET /interactives/flashcards/{deck_id}');
    expect(matchEndpoint('GET', '/journals/versions/j1/diff')).toBe('GET /journals/versions/{journal_id}/diff');
    expect(matchEndpoint('GET', '/journals/versions/j1/v1')).toBe('GET /journals/versions/{journal_id}/{version_id}');
    // Endpoints a hand-kept list once missed have their own names (they shared the unknown-path bucket).
    expect(matchEndpoint('POST', '/journals/editor/session')).toBe('POST /journals/editor/session');
    expect(matchEndpoint('GET', '/video/download/v1')).toBe('GET /video/download/{video_id}');
    expect(matchEndpoint('GET', '/video/captions/v1')).toBe('GET /video/captions/{video_id}');
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
