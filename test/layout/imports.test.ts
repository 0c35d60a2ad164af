/**
 * Layout rules (issue 16, item 7): no import circles among the project's own modules (type-only
 * imports included: they tie the modules' designs together as much as value imports do), and no
 * stray scripts at the repository root.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['server', 'shared', 'cli', 'web', 'bench'];
/** `import … from`, `export … from`, `import './x'` (for its effects) and `import('./x')`. */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, out);
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const dir of SOURCE_DIRS) {
    for (const file of sourceFiles(path.join(ROOT, dir))) {
      const text = readFileSync(file, 'utf8');
      const deps: string[] = [];
      for (const m of text.matchAll(IMPORT)) deps.push(path.resolve(path.dirname(file), m[1] ?? m[2]!));
      graph.set(file, deps);
    }
  }
  return graph;
}

/** Strongly connected components of more than one module, or a module importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(path.relative(ROOT, w));
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

it('has no import circles among its own modules', () => {
  const graph = importGraph();
  expect(graph.size).toBeGreaterThan(100);
  const found = circles(graph);
  if (found.length > 0) console.log(`import circles:\n${found.map((c) => `  ${c.join(' <-> ')}`).join('\n')}`);
  expect(found).toEqual([]);
});

it('keeps no stray scripts at the repository root', () => {
  const scripts = readdirSync(ROOT).filter((n) => /\.(m?[jt]s|cjs)$/.test(n));
  expect(scripts.sort()).toEqual(['vitest.config.ts']);
});
