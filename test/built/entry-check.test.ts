/**
 * The build's check that a bundle loads the same package files as the source run
 * (scripts/check-entries.mjs, run by scripts/build-server.mjs): it names a package whose `import`
 * and `require` entries differ, one esbuild picks by its own `module` condition, and one a nested
 * node_modules gives the importer but not the bundle; on the real tree, neither bundle has any,
 * and each build-time shim loads the very module the source run loads.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLES, bundleMismatches } from '../../scripts/build-server.mjs';
import { describeMismatches, entryMismatches } from '../../scripts/check-entries.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = mkdtempSync(path.join(os.tmpdir(), 'entry-check-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

/** Writes `files` (path relative to the fixture: content; objects as JSON) into the fixture. */
function write(files: Record<string, string | object>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(fixture, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  }
}

write({
  'package.json': { name: 'fixture', type: 'module' },
  // `import` gets everything, `require` the core only (as nerdamer-prime's main entry).
  'node_modules/dual/package.json': { name: 'dual', exports: { '.': { import: './all.mjs', require: './core.cjs' }, './core': './core.cjs' } },
  'node_modules/dual/all.mjs': 'export default "all";',
  'node_modules/dual/core.cjs': 'module.exports = "core";',
  // esbuild's own `module` condition comes before the `import` entry Node picks.
  'node_modules/modfirst/package.json': { name: 'modfirst', exports: { '.': { module: './module.js', import: './node.mjs', default: './node.mjs' } } },
  'node_modules/modfirst/module.js': 'export default "module";',
  'node_modules/modfirst/node.mjs': 'export default "node";',
  // One entry only: the same everywhere.
  'node_modules/plain/package.json': { name: 'plain', main: './index.js' },
  'node_modules/plain/index.js': 'module.exports = "plain";',
  // A bundled package with its own copy of `dep`: it loads that copy, the bundle's require() the top one.
  'node_modules/dep/package.json': { name: 'dep', version: '1.0.0', main: './index.js' },
  'node_modules/dep/index.js': 'module.exports = 1;',
  'node_modules/wrapper/package.json': { name: 'wrapper', main: './index.js' },
  'node_modules/wrapper/index.js': 'module.exports = require("dep");',
  'node_modules/wrapper/node_modules/dep/package.json': { name: 'dep', version: '2.0.0', main: './index.js' },
  'node_modules/wrapper/node_modules/dep/index.js': 'module.exports = 2;',
});

/** The mismatches of `source` (src/main.js) bundled as the server is: CommonJS, `external` left to Node. */
async function check(source: string, external: string[], conditions?: string[]) {
  write({ 'src/main.js': source });
  const outfile = path.join(fixture, 'dist/main.cjs');
  const { metafile } = await build({ absWorkingDir: fixture, entryPoints: ['src/main.js'], bundle: true, platform: 'node', format: 'cjs', outfile, external, conditions, metafile: true, write: false, logLevel: 'silent' });
  return entryMismatches(metafile, { root: fixture, outfile, format: 'cjs' });
}

describe('the entry check on a fixture', () => {
  it("fails on an external package whose import and require entries differ, naming package, importer and both files", async () => {
    const found = await check('import d from "dual"; import p from "plain"; console.log(d, p);', ['dual', 'plain']);
    expect(found).toEqual([
      {
        specifier: 'dual',
        importers: ['src/main.js'],
        source: 'node_modules/dual/all.mjs (import, from src)',
        bundle: 'node_modules/dual/core.cjs (require at run time, from dist)',
      },
    ]);
    const message = describeMismatches('fixture bundle', found);
    expect(message).toContain("'dual' imported by src/main.js");
    expect(message).toContain('source run loads node_modules/dual/all.mjs');
    expect(message).toContain('bundle loads     node_modules/dual/core.cjs');
  });

  it('passes once the import names one file under every condition', async () => {
    expect(await check('import d from "dual/core"; console.log(d);', ['dual'])).toEqual([]);
  });

  it("fails on a bundled package esbuild resolves by its 'module' condition, and passes with Node's conditions", async () => {
    const source = 'import m from "modfirst"; console.log(m);';
    expect(await check(source, [])).toEqual([
      { specifier: 'modfirst', importers: ['src/main.js'], source: 'node_modules/modfirst/node.mjs (import, from src)', bundle: 'node_modules/modfirst/module.js (bundled by esbuild)' },
    ]);
    expect(await check(source, [], [])).toEqual([]);
  });

  it("fails on an external package the importer finds in its own node_modules and the bundle's require() does not", async () => {
    expect(await check('import w from "wrapper"; console.log(w);', ['dep'])).toEqual([
      {
        specifier: 'dep',
        importers: ['node_modules/wrapper/index.js'],
        source: 'node_modules/wrapper/node_modules/dep/index.js (require, from node_modules/wrapper)',
        bundle: 'node_modules/dep/index.js (require at run time, from dist)',
      },
    ]);
  });
});

describe('the real tree', () => {
  const metafiles = Object.fromEntries(
    Object.keys(BUNDLES).map((name) => [name, build({ ...BUNDLES[name as keyof typeof BUNDLES], metafile: true, write: false }).then((r) => r.metafile!)]),
  );

  it.each(Object.keys(BUNDLES))('the %s bundle loads every package file the source run loads', async (name) => {
    expect(await bundleMismatches(name, await metafiles[name]!)).toEqual([]);
  }, 60_000);

  it('each shim loads, on first use, the module the source run gives its importers', async () => {
    const { alias } = BUNDLES.server;
    const metafile = await metafiles.server!;
    let compared = 0;
    for (const [pkg, shimPath] of Object.entries(alias)) {
      const shimInput = path.relative(root, path.resolve(root, shimPath));
      const importers = Object.entries(metafile.inputs)
        .filter(([, input]) => input.imports.some((i) => i.path === shimInput))
        .map(([file]) => path.join(root, file));
      expect(importers.length, pkg).toBeGreaterThan(0);
      const shim = createRequire(import.meta.url)(path.join(root, shimInput));
      for (const importer of importers) {
        const real = createRequire(importer)(pkg);
        // The same module object: every export the shim hands out is the real module's own.
        const name = Object.keys(real).find((k) => typeof real[k] === 'function')!;
        expect(shim[name], `${pkg} for ${path.relative(root, importer)}`).toBe(real[name]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  }, 60_000);
});
