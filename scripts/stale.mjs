/** Whether a build output is older than what it is built from (used by the --if-stale builds). */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestMtime(file) {
  const s = statSync(file);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

/** True when `stamp` is missing or any file under `sources` (files or folders) is newer. */
export function isStale(stamp, sources) {
  let built;
  try {
    built = statSync(stamp).mtimeMs;
  } catch {
    return true;
  }
  return Math.max(...sources.map(newestMtime)) > built;
}
