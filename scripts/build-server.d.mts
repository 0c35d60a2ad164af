// Types of build-server.mjs, for the tests that read its bundles.
import type { BuildOptions, Metafile } from 'esbuild';
import type { Mismatch } from './check-entries.d.mts';

export const BUNDLES: { server: BuildOptions & { alias: Record<string, string> }; worker: BuildOptions };
export function bundleMismatches(name: string, metafile: Metafile): Promise<Mismatch[]>;
