/** The rules index (server/practice/grading/rules.ts) names real files and tests, each rule once. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../server/practice/grading/rules.ts';

const root = new URL('../../', import.meta.url);

describe('the rules index', () => {
  it('lists each rule once, with its file and tests present', () => {
    expect(new Set(RULES.map((r) => r.name)).size).toBe(RULES.length);
    for (const r of RULES) {
      expect(existsSync(new URL(r.file, root)), r.file).toBe(true);
      expect(r.tests.length, r.name).toBeGreaterThan(0);
      for (const t of r.tests) expect(existsSync(new URL(t, root)), t).toBe(true);
      expect(r.what.length).toBeGreaterThan(10);
    }
  });
});
