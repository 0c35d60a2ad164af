/**
 * /docs shows what each status really answers (issue 32): every error response carries an example
 * of its own status (before, every 401/405 example read "Journal not found", the component's), and
 * the document has no jsonSchemaDialect, which Swagger UI flagged in a red box.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../server/endpoints.ts';
import { buildDocument } from '../../server/openapi/document.ts';

describe('error examples of the OpenAPI document', () => {
  const doc = buildDocument(ENDPOINTS) as any;
  it('has no jsonSchemaDialect', () => {
    expect(doc.jsonSchemaDialect).toBeUndefined();
  });
  it('gives each error status its own example', () => {
    const want: Record<string, RegExp> = { '401': /API key/, '404': /not found/, '405': /not allowed/, '413': /too large/, '415': /Content-Type/, '500': /Internal/, '503': /Storage/ };
    let seen = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        for (const [status, r] of Object.entries<any>(op.responses)) {
          if (!/^[45]/.test(status) || status === '422' || status === '429' || status === '402' || status === '409') continue;
          const example = r.content?.['application/json']?.example;
          if (!path.startsWith('/v1/')) continue;
          expect(example, `${method} ${path} ${status}`).toBeDefined();
          if (want[status]) expect(example.error, `${method} ${path} ${status}`).toMatch(want[status]!);
          if (status !== '404') expect(example.error).not.toBe('Journal not found');
          seen++;
        }
      }
    }
    expect(seen).toBeGreaterThan(100);
  });
});
