/**
 * The corpus of real documents for the fidelity test: every non-empty markdown file of the
 * installed npm packages (READMEs, guides, changelogs), read from node_modules at test time and
 * never copied into the repository. Files with the same content (a package installed twice) count once.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as Y from 'yjs';
import { importTask } from '../../server/journals/markdown-tasks.ts';
import { fragmentToDoc } from '../../server/journals/read-model.ts';
import { docToMarkdown } from '../../shared/markdown/index.ts';
import { FRAGMENT_NAME } from '../../shared/schema.ts';

export interface CorpusFile {
  /** Path under node_modules. */
  name: string;
  markdown: string;
}

const MARKDOWN_FILE = /\.(md|markdown)$/i;

export function markdownCorpus(root = path.resolve('node_modules')): CorpusFile[] {
  const out: CorpusFile[] = [];
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) stack.push(full);
      else if (e.isFile() && MARKDOWN_FILE.test(e.name)) {
        const markdown = fs.readFileSync(full, 'utf8');
        if (!markdown.trim()) continue;
        const hash = createHash('sha1').update(markdown).digest('hex');
        if (seen.has(hash)) continue;
        seen.add(hash);
        out.push({ name: path.relative(root, full), markdown });
      }
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * Import then export through the functions the service runs: the import task builds the Yjs
 * state a new journal stores, the read model reads it back as GET /content does, and the
 * exporter prints it, which must be what the import cached as its export.
 */
export function serviceRoundTrip(markdown: string): string {
  const imported = importTask(markdown).result;
  const ydoc = new Y.Doc();
  Y.applyUpdate(ydoc, imported.snapshot);
  const { doc } = fragmentToDoc(ydoc.getXmlFragment(FRAGMENT_NAME));
  ydoc.destroy();
  const read = docToMarkdown(doc);
  // The service answers the first read after an import from the export cached at import.
  if (read !== imported.markdown) throw new Error(`the export cached at import differs from the one read back:\n${imported.markdown}\n---\n${read}`);
  return read;
}
