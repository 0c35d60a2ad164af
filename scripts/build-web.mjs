// Builds the browser app (web/, TypeScript and CSS) with esbuild into dist/web: fingerprinted ES
// modules and CSS under dist/web/assets (served for a year, immutable) and dist/web/index.html
// naming them (served with no-cache), so a deploy changes the page and never a cached asset.
// Run by `prepare` (npm install / npm ci) and by `prestart` when a source is newer than the build.
// `--if-stale`: build only when dist/web is missing or older than web/, shared/ or the lockfile.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { isStale } from './stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/web');
const stamp = path.join(out, 'index.html');
/** Where the server serves dist/web/assets (server/web/routes.ts). */
const PUBLIC_PATH = '/app/assets';

function stale() {
  return isStale(stamp, [path.join(root, 'web'), path.join(root, 'shared'), path.join(root, 'package-lock.json'), fileURLToPath(import.meta.url)]);
}

function page({ script, style }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Study journals</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${PUBLIC_PATH}/${style}">
<script type="module" src="${PUBLIC_PATH}/${script}"></script>
</head>
<body>
<div id="app"><noscript>This app needs JavaScript.</noscript></div>
</body>
</html>
`;
}

if (!process.argv.includes('--if-stale') || stale()) {
  const started = performance.now();
  // Built beside the live folder and swapped in, so a server reading dist/web (or a second build
  // started at the same time, as two test files may) never sees half a build.
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: 'web/main.ts' },
    outdir: path.join(tmp, 'assets'),
    bundle: true,
    format: 'esm',
    // The editor is a chunk of its own, loaded when a journal is opened.
    splitting: true,
    platform: 'browser',
    target: ['chrome120', 'firefox121'],
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    // The web tsconfig (DOM types), not the server's.
    tsconfig: 'web/tsconfig.json',
    logLevel: 'warning',
  });
  const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === 'web/main.ts');
  if (!entry || !entry[1].cssBundle) throw new Error('build-web: the app entry or its CSS is missing from the build');
  writeFileSync(path.join(tmp, 'index.html'), page({ script: path.basename(entry[0]), style: path.basename(entry[1].cssBundle) }));
  const old = `${out}.old-${process.pid}`;
  if (existsSync(out)) renameSync(out, old);
  try {
    renameSync(tmp, out);
  } catch (err) {
    // Another build swapped its folder in first: the same sources, the same files.
    if (!existsSync(out)) throw err;
    rmSync(tmp, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  console.log(`built dist/web in ${Math.round(performance.now() - started)} ms`);
}
