/** File-system side of the bulk jobs: which files to import, and safe unique export names. */
import fs from 'node:fs/promises';
import path from 'node:path';

const MARKDOWN = /\.(md|markdown)$/i;

/** Markdown files named directly, and those found (recursively, sorted) in named folders. */
export async function collectMarkdownFiles(inputs: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && MARKDOWN.test(e.name)) out.push(full);
    }
  };
  for (const input of inputs) {
    const stat = await fs.stat(input); // a missing path throws: the caller reports it
    if (stat.isDirectory()) await walk(input);
    else out.push(input);
  }
  return [...new Set(out.map((p) => path.resolve(p)))];
}

/** The journal title for a file: its name without the extension. */
export function titleFor(file: string): string {
  const base = path.basename(file).replace(MARKDOWN, '').trim();
  return (base || 'Imported Journal').slice(0, 300);
}

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** A portable file name from a title: no separators or control characters, bounded length. */
export function safeFileStem(title: string): string {
  let s = title
    .normalize('NFKC')
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '');
  if (!s || RESERVED.test(s)) s = s ? `${s}_` : 'untitled';
  // 200 bytes leaves room for a suffix and the extension within common 255-byte limits.
  while (Buffer.byteLength(s) > 200) s = s.slice(0, -1);
  return s;
}

/** Hands out names unique within one export (case-insensitively, for case-insensitive disks). */
export class UniqueNames {
  private readonly used = new Set<string>();

  constructor(existing: string[] = []) {
    for (const n of existing) this.used.add(n.toLowerCase());
  }

  take(stem: string, ext = '.md'): string {
    let name = `${stem}${ext}`;
    for (let i = 2; this.used.has(name.toLowerCase()); i++) name = `${stem} (${i})${ext}`;
    this.used.add(name.toLowerCase());
    return name;
  }
}
