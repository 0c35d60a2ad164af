/**
 * The top entries of a V8 CPU profile (node --cpu-prof): self time by function, and total
 * (inclusive) time of the entries that matter for an editor update. Usage:
 * `npx tsx bench/profile-top.ts <dir or .cpuprofile> [count]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// source-map-js: present through the web build's toolchain (vite/postcss); this script is a dev aid.
import { SourceMapConsumer } from 'source-map-js';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

const arg = process.argv[2]!;
const count = Number(process.argv[3] ?? 25);
const file = fs.statSync(arg).isDirectory()
  ? path.join(arg, fs.readdirSync(arg).filter((f) => f.endsWith('.cpuprofile')).sort().pop()!)
  : arg;
const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i]!, (self.get(prof.samples[i]!) ?? 0) + (prof.timeDeltas[i] ?? 0));
/** The bundle is minified: its frames are named by the source map (source file, line, name). */
const maps = new Map<string, SourceMapConsumer | null>();
function mapOf(url: string): SourceMapConsumer | null {
  if (!maps.has(url)) {
    let m: SourceMapConsumer | null = null;
    try {
      const f = fileURLToPath(url);
      if (fs.existsSync(`${f}.map`)) m = new SourceMapConsumer(JSON.parse(fs.readFileSync(`${f}.map`, 'utf8')));
    } catch {
      /* not a file */
    }
    maps.set(url, m);
  }
  return maps.get(url)!;
}
const label = (n: Node) => {
  const map = n.callFrame.url.startsWith('file://') && !n.callFrame.url.includes('node_modules') ? mapOf(n.callFrame.url) : null;
  if (map) {
    const p = map.originalPositionFor({ line: n.callFrame.lineNumber + 1, column: n.callFrame.columnNumber });
    if (p.source) return `${p.name ?? n.callFrame.functionName ?? '(anonymous)'} ${p.source.replace(/.*node_modules\//, '').replace(/^(\.\.\/)+/, '')}:${p.line}`;
  }
  const u = n.callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '').replace(/.*\/(server|dist)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${u ? `${u}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
};
const selfBy = new Map<string, number>();
let total = 0;
for (const [id, us] of self) {
  const l = label(byId.get(id)!);
  selfBy.set(l, (selfBy.get(l) ?? 0) + us);
  total += us;
}
const idle = [...selfBy].filter(([l]) => l.startsWith('(idle)')).reduce((n, [, v]) => n + v, 0);
console.log(`${path.basename(file)}: ${(total / 1000).toFixed(0)} ms sampled, ${((total - idle) / 1000).toFixed(0)} ms busy`);
console.log('self time (share of busy):');
for (const [l, us] of [...selfBy].filter(([l]) => !l.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, count)) {
  console.log(`  ${((100 * us) / (total - idle)).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${l}`);
}
// Inclusive time by function (counted once per stack).
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map<string, number>();
for (const [id, us] of self) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (seen.has(l)) continue;
    seen.add(l);
    incl.set(l, (incl.get(l) ?? 0) + us);
  }
}
console.log('total time (share of busy), our code and Yjs:');
for (const [l, us] of [...incl].filter(([l]) => /server\/|dist\/|yjs|y-protocols|lib0|ws\/lib|better-sqlite3/.test(l)).sort((a, b) => b[1] - a[1]).slice(0, count)) {
  console.log(`  ${((100 * us) / (total - idle)).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${l}`);
}
