/**
 * Layout rules: no import circles among the project's own modules (type-only imports included:
 * they tie the modules' designs together as much as value imports do), no import of server/ that
 * runs up the declared order of layers (docs/architecture.md), and no stray scripts at the
 * repository root.
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

/**
 * The layers of server/, from the ground up (docs/architecture.md): a module may import its own
 * layer and those below, never one above. Folders on one line are peers of a layer and may not
 * import each other either, except in the listed order. Where a folder stands, and why:
 * - shared/: code the server and its clients share (schema, markdown, SDK); it knows no server.
 * - logger.ts, time.ts: what every layer writes with (log lines, timestamps).
 * - storage/, http/: the store of record; request parsing, errors, endpoint declarations.
 * - workers/: the thread pool; it runs operations the domains declare and knows none of them.
 * - jobs/: durable jobs and the resources they make, with the paid-job lifecycle that practice
 *   and video share (it knows credits and webhooks only by the small interfaces it declares).
 * - auth/, billing/, keys/ (the organization's keys: auth's keys managed by admin keys, with
 *   billing's counters), webhooks/, llm/ (the LLM provider's client, which features call).
 * - journals/: documents, versions, comments, publishing, search; the live document and the
 *   registry with its extension hooks.
 * - realtime/: the editor protocols over the live journals.
 * - cluster/: cross-instance sync, an extension of the registry and the rooms (it implements the
 *   interfaces journals/ and realtime/ declare), so it stands above both.
 * - sources/ (the text a feature reads: a journal or submitted text), flashcards/, video/,
 *   practice/: features that read journals.
 * - ops/ (health, readiness, metrics: they watch the layers below) and web/ (the built browser
 *   app's files): edges of the service that no domain calls.
 * - openapi/ (the document of whatever endpoints it is handed, and /docs), endpoints.ts (every
 *   endpoint's declaration, gathered), config.ts, app.ts, then the entries admin/ (the admin command line),
 *   main.ts and worker.ts (the worker thread, with worker.mjs, its loader from source), and
 *   load-worker.ts (the sliced cold load's own worker, with load-worker.mjs): composition.
 */
const LAYERS: readonly string[] = [
  'shared/',
  'logger.ts time.ts',
  'storage/',
  'http/',
  'workers/',
  'jobs/',
  'auth/',
  'billing/',
  'keys/',
  'webhooks/',
  'llm/',
  'journals/',
  'realtime/',
  'cluster/',
  'sources/',
  'flashcards/',
  'video/',
  'practice/',
  'ops/ web/',
  'openapi/',
  'endpoints.ts',
  'config.ts',
  'app.ts',
  'admin/ main.ts worker.ts worker.mjs load-worker.ts load-worker.mjs',
];

/** The layer of a module of shared/ or server/ (its folder under server/, or its own name at the top). */
function placeOf(file: string): string | undefined {
  const rel = path.relative(ROOT, file).split(path.sep);
  if (rel[0] === 'shared') return 'shared/';
  if (rel[0] !== 'server') return undefined;
  return rel.length > 2 ? `${rel[1]}/` : rel[1];
}

function rankOf(place: string): number {
  return LAYERS.findIndex((layer) => layer.split(' ').includes(place));
}

it('places every folder and top-level module of server/ in a layer', () => {
  const places = new Set([...importGraph().keys()].map(placeOf).filter((p): p is string => p !== undefined));
  expect([...places].filter((p) => rankOf(p) < 0)).toEqual([]);
});

it('has no import that runs up the layers of server/', () => {
  const upward: string[] = [];
  for (const [file, deps] of importGraph()) {
    const from = placeOf(file);
    if (!from) continue;
    for (const dep of deps) {
      const to = placeOf(dep);
      if (!to || to === from) continue;
      const [a, b] = [rankOf(from), rankOf(to)];
      // Peers of one line: only the earlier one may be imported.
      const peers = a === b && LAYERS[a]!.split(' ').indexOf(to) > LAYERS[a]!.split(' ').indexOf(from);
      if (b > a || peers) upward.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, dep)}`);
    }
  }
  if (upward.length > 0) console.log(`imports up the layers:\n${upward.map((u) => `  ${u}`).join('\n')}`);
  expect(upward).toEqual([]);
});

it('keeps no stray scripts at the repository root', () => {
  const scripts = readdirSync(ROOT).filter((n) => /\.(m?[jt]s|cjs)$/.test(n));
  expect(scripts.sort()).toEqual(['vitest.config.ts']);
});
