/**
 * `npm run bench`: runs every benchmark module in one process and prints its figures, each goal
 * with `ok` or `MISS`, then a summary table of every goal. Goals are ratios measured in the same
 * run (machines are noisy); nothing here is part of `npm test`.
 * Pass names to run a subset: `npm run bench -- journals markdown`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatValue, summaryTable, verdictOf, type Verdict } from './verdicts.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const suites: [name: string, file: string, fn: string][] = [
  ['startup', 'startup.ts', 'benchStartup'],
  ['admin', 'admin.ts', 'benchAdmin'],
  ['journals', 'journals.ts', 'benchJournals'],
  ['markdown', 'markdown.ts', 'benchMarkdown'],
  ['versions', 'versions.ts', 'benchVersions'],
  ['realtime', 'realtime.ts', 'benchRealtime'],
  ['billing', 'billing.ts', 'benchBilling'],
  ['practice', 'practice.ts', 'benchPractice'],
  ['grade-batch', 'grade-batch.ts', 'benchGradeBatch'],
  ['video', 'video.ts', 'benchVideo'],
  ['security', 'security.ts', 'benchSecurity'],
  ['tenants', 'tenants.ts', 'benchTenants'],
  ['cluster', 'cluster.ts', 'benchCluster'],
  ['hocuspocus', 'hocuspocus.ts', 'benchHocuspocus'],
  ['collaboration', 'collaboration.ts', 'benchCollaboration'],
  ['crowds', 'crowds.ts', 'benchCrowds'],
];

const wanted = process.argv.slice(2);
const verdicts: Verdict[] = [];
for (const [name, file, fn] of suites) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const full = path.join(here, file);
  if (!fs.existsSync(full)) continue;
  const mod = await import(pathToFileURL(full).href);
  const started = performance.now();
  const figures: Record<string, number> = await mod[fn]();
  console.log(`\n== ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  for (const [k, v] of Object.entries(figures)) {
    const verdict = verdictOf(name, k, v);
    if (verdict) verdicts.push(verdict);
    console.log(`  ${verdict ? (verdict.met ? 'ok   ' : 'MISS ') : '     '}${k}: ${formatValue(v)}`);
  }
}
console.log(`\n== summary\n${summaryTable(verdicts)}`);
process.exit(0);
