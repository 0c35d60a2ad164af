// Builds the journal schema's Tiptap extensions (shared/tiptap.ts) into dist/tiptap/index.mjs, an
// ES module for a Tiptap app (docs/tiptap.md): our code bundled (schema, DOM rules), `@tiptap/*`
// and `prosemirror-*` left as imports, so the app's own copies are used (one ProseMirror per page).
// Run by `prepare`. `--if-stale`: build only when the output is missing or older than shared/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { isStale } from './stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/tiptap/index.mjs');

if (!process.argv.includes('--if-stale') || isStale(out, [path.join(root, 'shared'), fileURLToPath(import.meta.url)])) {
  const started = performance.now();
  mkdirSync(path.dirname(out), { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: ['shared/tiptap.ts'],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: ['es2022'],
    external: ['@tiptap/*', 'prosemirror-*'],
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  console.log(`built dist/tiptap in ${Math.round(performance.now() - started)} ms`);
}
