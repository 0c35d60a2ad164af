/**
 * vitest globalSetup of the browser suite: builds the web app (scripts/build-web.mjs) when a source
 * is newer than dist/web, so the pages under test are the current code.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, ['scripts/build-web.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
}
