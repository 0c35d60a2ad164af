/**
 * The admin command line's time per command (issue 25: under 0.5 s), as users run it: the build
 * directly (`node dist/server/admin.cjs`) and through npm (`npm run --silent admin`, whose own
 * start-up counts for the user), with an empty Node start and the TypeScript source under tsx
 * (what `npm run admin` ran before the build) for context. Each runs `org list` on a SQLite
 * DATA_DIR holding one organization, taking turns, several rounds; figures are the medians of the
 * wall time and of the CPU time (user + system, of the process and everything it ran), which a busy
 * machine inflates far less.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchAdmin(): Promise<Record<string, number>> {
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-admin-'));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
  const ways: Record<string, [string, string[]]> = {
    node: [process.execPath, ['-e', '0']],
    direct: [process.execPath, ['dist/server/admin.cjs', 'org', 'list']],
    npm: ['npm', ['run', '--silent', 'admin', '--', 'org', 'list']],
    tsx: [path.join(root, 'node_modules/.bin/tsx'), ['server/admin/main.ts', 'org', 'list']],
  };
  // Through sh, which reads its waited-for children's CPU time (cutime + cstime, in clock ticks of
  // 10 ms) from /proc after the command.
  const once = ([file, args]: [string, string[]]) => {
    const started = performance.now();
    const stat = execFileSync('sh', ['-c', '"$@" >/dev/null; cat /proc/$$/stat', 'sh', file, ...args], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const wall = performance.now() - started;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { wall, cpu: (Number(fields[13]) + Number(fields[14])) * 10 };
  };
  once([process.execPath, ['dist/server/admin.cjs', 'org', 'create', '--name', 'Bench']]);
  for (const way of Object.values(ways)) once(way); // warm the file cache
  const wall: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, way] of Object.entries(ways)) {
      const t = once(way);
      wall[k]!.push(t.wall);
      cpu[k]!.push(t.cpu);
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  const figures: Record<string, number> = {};
  for (const [k, label] of [
    ['node', 'empty Node start (node -e 0)'],
    ['direct', 'admin command, node dist/server/admin.cjs'],
    ['npm', 'admin command, npm run --silent admin'],
    ['tsx', 'admin command from the TypeScript source under tsx (before the build)'],
  ] as const) {
    const goal = k === 'direct' || k === 'npm' ? ' (goal < 500)' : '';
    figures[`${label}, wall ms${goal}`] = Math.round(median(wall[k]!));
    figures[`${label}, CPU ms`] = Math.round(median(cpu[k]!));
  }
  return figures;
}
