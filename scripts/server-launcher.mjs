// dist/server/main.mjs, what `npm start` runs (copied here by scripts/build-server.mjs): starts
// the server bundle (server.cjs) with V8's code cache. The first start compiles it and, a moment
// after it is up, saves the compiled code next to it; later starts read that instead of parsing
// and compiling 1.5 MB of JavaScript again (about a third of the time to the first answer). A
// cache V8 rejects (another Node version, a new build) is replaced; one that cannot be written
// (a read-only directory) is simply not kept.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const dir = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(dir, 'server.cjs');
const cacheFile = `${file}.${process.version}.cache`;
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  // first start of this build
}
// The bundle is one function expression (see the build's banner). UTF-8: esbuild escapes strings
// as ASCII but leaves regular expression literals as written (π, √, ×, € in patterns).
const script = new vm.Script(fs.readFileSync(file, 'utf8'), {
  filename: file,
  cachedData,
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const keep = !cachedData || script.cachedDataRejected;
cachedData = undefined; // read: not held for the life of the process
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dir);

if (keep) {
  setTimeout(() => {
    try {
      const tmp = `${cacheFile}.${process.pid}`;
      fs.writeFileSync(tmp, script.createCachedData());
      fs.renameSync(tmp, cacheFile);
    } catch {
      // not kept: the next start compiles again
    }
  }, 1000).unref();
}
