import { describe, expect, it } from 'vitest';
import { endpointByName, ENDPOINTS, matchEndpoint } from '../../server/billing/endpoints.ts';
import { limitsFor, windowAt } from '../../server/billing/limits.ts';
import { PRICES, priceOf } from '../../server/billing/prices.ts';

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
    expect(endpointByName('GET /journals/content/{journal_id}')).toBe('GET /journals/content/{id}');
    expect(endpointByName('post  /interactives/practice/create')).toBe('POST /interactives/practice/create');
    expect(endpointByName('GET /nothing')).toBeUndefined();
  });

  it('prices every endpoint, in integer micro-dollars', () => {
    for (const e of ENDPOINTS) expect(Number.isSafeInteger(PRICES[e].base), e).toBe(true);
    expect(priceOf('PATCH /journals/editor/edit', 3)).toBe(130);
    expect(priceOf('PUT /journals/editor/import_from_markdown', 0.1)).toBe(220);
    expect(priceOf('PUT /journals/editor/import_from_markdown', 2)).toBe(240);
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
    expect(limitsFor('enterprise', 'POST /interactives/practice/grade')).toEqual({ minute: 1000, day: undefined, custom: false });
    expect(limitsFor('developer', 'POST /video/create', { day: 5 })).toEqual({ minute: 3, day: 5, custom: true });
  });
});
