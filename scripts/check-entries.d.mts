// Types of check-entries.mjs, for the tests that call it.
import type { Metafile } from 'esbuild';

export interface Mismatch {
  specifier: string;
  importers: string[];
  /** The file the source run loads, relative to the root, and how it was found. */
  source: string;
  /** The file the bundle loads, relative to the root, and how it was found. */
  bundle: string;
}

export function entryMismatches(metafile: Metafile, options: { root: string; outfile: string; format: 'cjs' | 'esm'; alias?: Record<string, string> }): Promise<Mismatch[]>;
export function describeMismatches(name: string, mismatches: Mismatch[]): string;
