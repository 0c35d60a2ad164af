// Whether a bundle loads the same package files as the source run (scripts/build-server.mjs runs
// it on each bundle and fails the build if not). Conditional exports can point `import` and
// `require` at different files (nerdamer-prime: every add-on against the core alone), and
// esbuild adds a `module` condition Node does not know, so a bundle can differ from the tested
// source without a line of our code changing. For every package import esbuild saw (its
// metafile), in every file, this compares:
// - the source run: Node's resolution from the importing file, with the conditions of the import
//   as written (`import`: Node's ESM resolver; `require()`: Node's CommonJS resolver);
// - the bundle: for an external package, Node's resolution at run time from the bundle's own
//   folder (a CommonJS bundle require()s every external); for a bundled one, the file esbuild
//   put in the bundle.
import { realpathSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * One package import whose two runs load different files (or one of them nothing); `source` and
 * `bundle` name the file each run loads, relative to the root, and how it was found.
 * @typedef {{ specifier: string, importers: string[], source: string, bundle: string }} Mismatch
 */

// Node resolves `import.meta.resolve(specifier, parent)` from `parent` only with this flag; a
// worker thread gets it, so the check needs no process and no copy of Node's resolver.
if (!isMainThread && workerData?.checkEntriesResolver) {
  parentPort.on('message', (queries) => {
    parentPort.postMessage(
      queries.map(([specifier, parent]) => {
        try {
          return { file: fileURLToPath(import.meta.resolve(specifier, parent)) };
        } catch (err) {
          return { error: String(err.message).split('\n')[0] };
        }
      }),
    );
  });
}

/** Node's ESM resolution of each [specifier, parent file] pair, as { file } or { error }. */
async function resolveImports(pairs) {
  if (pairs.length === 0) return [];
  const worker = new Worker(new URL(import.meta.url), { workerData: { checkEntriesResolver: true }, execArgv: ['--experimental-import-meta-resolve'] });
  try {
    const answer = new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    worker.postMessage(pairs.map(([specifier, file]) => [specifier, pathToFileURL(file).href]));
    return await answer;
  } finally {
    await worker.terminate();
  }
}

/** Node's CommonJS resolution of `specifier` from `file`, as { file } or { error }. */
function resolveRequire(specifier, file) {
  try {
    return { file: createRequire(file).resolve(specifier) };
  } catch (err) {
    return { error: String(err.message).split('\n')[0] };
  }
}

/** `fn(...args)` once per distinct arguments. */
function memo(fn) {
  const seen = new Map();
  return (...args) => {
    const key = args.join('\0');
    if (!seen.has(key)) seen.set(key, fn(...args));
    return seen.get(key);
  };
}

/** A package specifier ('pkg', '@scope/pkg/sub', '#internal'): not relative, absolute or built in. */
function isPackageSpecifier(specifier) {
  return !/^(\.{1,2}(\/|$)|\/|[a-z]+:)/i.test(specifier) && !isBuiltin(specifier);
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const usesImport = (kind) => kind === 'import-statement' || kind === 'dynamic-import';

/**
 * The package imports of an esbuild metafile whose bundle loads another file than the source run.
 * `outfile`: where the bundle runs from; `format`: 'cjs' or 'esm'; `alias`: esbuild's alias
 * option (aliased packages are replaced on purpose and not compared).
 * @returns {Promise<Mismatch[]>}
 */
export async function entryMismatches(metafile, { root, outfile, format, alias = {} }) {
  /** [specifier, importer, source conditions, bundle: { external, conditions } | { file }] */
  const uses = [];
  const outputImports = new Set(Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)));
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    // Inputs outside files ("<define:…>", "(disabled):…") import nothing Node resolves.
    if (/^[<(]|:/.test(input)) continue;
    const importer = path.join(root, input);
    for (const imp of imports) {
      const specifier = imp.external ? imp.path : imp.original;
      if (!specifier || !isPackageSpecifier(specifier) || packageName(specifier) in alias) continue;
      // esbuild lists an import it dropped (used only as a type) as external; the bundle has no such import.
      if (imp.external && !outputImports.has(specifier)) continue;
      const source = usesImport(imp.kind) ? 'import' : 'require';
      const bundle = imp.external ? { external: format === 'cjs' || !usesImport(imp.kind) ? 'require' : 'import' } : { file: path.join(root, imp.path) };
      uses.push({ specifier, importer, source, bundle });
    }
  }

  // Node's ESM resolutions in one batch, the rest directly.
  const outDir = path.dirname(outfile);
  const importPairs = new Map();
  const want = (specifier, file) => importPairs.set(`${specifier}\0${path.dirname(file)}`, [specifier, file]);
  for (const u of uses) {
    if (u.source === 'import') want(u.specifier, u.importer);
    if (u.bundle.external === 'import') want(u.specifier, outfile);
  }
  const answers = await resolveImports([...importPairs.values()]);
  const esm = new Map([...importPairs.keys()].map((k, i) => [k, answers[i]]));
  const real = memo((file) => {
    try {
      return realpathSync(file);
    } catch {
      return file;
    }
  });
  // A package resolves alike from every file of one folder.
  const requireFrom = memo((specifier, dir) => resolveRequire(specifier, path.join(dir, 'x.js')));
  const resolve = (how, specifier, file) => {
    const r = how === 'import' ? esm.get(`${specifier}\0${path.dirname(file)}`) : requireFrom(specifier, path.dirname(file));
    return r.file ? { file: real(r.file) } : r;
  };
  const show = (r, how) => (r.file ? `${path.relative(root, r.file)} (${how})` : `nothing: ${r.error} (${how})`);
  const found = new Map();
  for (const u of uses) {
    const source = resolve(u.source, u.specifier, u.importer);
    const bundle = u.bundle.file ? { file: real(u.bundle.file) } : resolve(u.bundle.external, u.specifier, outfile);
    // The same file, or none in either run (an optional dependency not installed, such as pg-native, required in a try).
    if (source.file === bundle.file) continue;
    const m = {
      specifier: u.specifier,
      importers: [],
      source: show(source, `${u.source}, from ${path.relative(root, path.dirname(u.importer)) || '.'}`),
      bundle: show(bundle, u.bundle.file ? 'bundled by esbuild' : `${u.bundle.external} at run time, from ${path.relative(root, outDir)}`),
    };
    const key = `${m.specifier}\0${m.source}\0${m.bundle}`;
    if (!found.has(key)) found.set(key, m);
    found.get(key).importers.push(path.relative(root, u.importer));
  }
  return [...found.values()];
}

/** The build's error text for `mismatches` of the bundle `name`. */
export function describeMismatches(name, mismatches) {
  const lines = mismatches.map(
    (m) => `  '${m.specifier}' imported by ${m.importers.slice(0, 3).join(', ')}${m.importers.length > 3 ? ` and ${m.importers.length - 3} more` : ''}:\n    source run loads ${m.source}\n    bundle loads     ${m.bundle}`,
  );
  return [
    `${name}: ${mismatches.length} package import(s) would load another file in the bundle than in the source run (conditional exports, or esbuild's 'module' condition):`,
    ...lines,
    'Import an entry that names one file under every condition (a subpath such as pkg/file), or bundle the package with the conditions Node uses.',
  ].join('\n');
}
