// `npm run admin`: the admin command line from the build (dist/server/admin.cjs, compiled with the
// server by scripts/build-server.mjs), rebuilt first when a source is newer, as `npm start` does.
// One Node process for the staleness check and the command: no TypeScript compiler, no second start.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from './stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist/server/admin.cjs');
if (isStale(bundle, ['server', 'shared', 'package-lock.json'].map((p) => path.join(root, p)))) {
  // The build's "built dist/server in … ms" goes to stderr: stdout is the command's JSON.
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { stdio: ['ignore', 2, 2] });
}
createRequire(import.meta.url)(bundle);
