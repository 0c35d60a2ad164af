/**
 * vitest globalSetup: compiles the server (scripts/build-server.mjs) when a source is newer than
 * the build, so that suites starting `npm start`'s dist/server/main.mjs run the current code.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
}
