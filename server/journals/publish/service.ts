/**
 * Publishing (docs/publishing.md): a journal read-only at /p/{slug} for anyone, without a key.
 * The page is rendered on the server from the current content (html.ts) and cached per journal
 * by revision and title; every request reads the journal's row by slug (one indexed query), so a
 * change is seen at once and an unpublish (or a delete) is a 404 at once on every instance, with
 * no message between them. The ETag names the revision and title the page shows.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../../auth/keys.ts';
import type { Charge } from '../../billing/middleware.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { StorageEngine } from '../../storage/engine.ts';
import { journalDoc, type JournalService } from '../service.ts';
import type { JournalRow } from '../store.ts';
import { publishedPage } from './html.ts';
import { SLUG_PATTERN } from './endpoints.ts';

/** Rendered pages kept in memory (one per journal, the latest). */
const CACHE_ENTRIES = 500;

export interface Page {
  html: string;
  etag: string;
}

/** A slug made from a title: its letters and digits, plus six random ones so that it is free. */
export function slugFromTitle(title: string, random = randomBytes(4).toString('hex').slice(0, 6)): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  const slug = base ? `${base}-${random}` : `journal-${random}`;
  return SLUG_PATTERN.test(slug) ? slug : `journal-${random}`;
}

export function publishStatus(row: Pick<JournalRow, 'publish_slug'>): 'private' | 'published' {
  return row.publish_slug ? 'published' : 'private';
}

export class PublishService {
  private readonly cache = new Map<string, Page & { key: string }>();

  constructor(
    private readonly engine: StorageEngine,
    private readonly journals: JournalService,
  ) {}

  url(slug: string | null): string | null {
    return slug ? `${this.journals.publicBaseUrl}/p/${slug}` : null;
  }

  async publish(p: Principal, journalId: string, slug: string | undefined, charge?: Charge): Promise<JournalRow> {
    const row = await this.journals.owned(p, journalId);
    const wanted = slug ?? row.publish_slug ?? slugFromTitle(row.title);
    try {
      const out = await this.engine.transaction(async (tx) => {
        if (await this.journals.store.slugTaken(wanted, row.seq, tx)) throw new HttpError(409, `The slug '${wanted}' is taken by another journal`);
        await charge?.(tx);
        return this.journals.store.setPublished(tx, row.seq, wanted);
      });
      if (!out) throw notFound('Journal');
      return out;
    } catch (err) {
      // Two journals asked for the same slug at once: the unique index let one through.
      if (/unique|23505/i.test(String((err as { code?: string }).code ?? '') + String((err as Error).message))) {
        throw new HttpError(409, `The slug '${wanted}' is taken by another journal`);
      }
      throw err;
    }
  }

  async unpublish(p: Principal, journalId: string, charge?: Charge): Promise<JournalRow> {
    const row = await this.journals.owned(p, journalId);
    const out = await this.engine.transaction(async (tx) => {
      await charge?.(tx);
      return this.journals.store.setPublished(tx, row.seq, null);
    });
    if (!out) throw notFound('Journal');
    this.cache.delete(row.id);
    return out;
  }

  /** The ETag of a row's page (its id, revision, title and update time). */
  static etagOf(row: Pick<JournalRow, 'id' | 'revision' | 'title' | 'updated_at'>): string {
    return `"${createHash('sha256').update(`${row.id}\n${row.revision}\n${row.title}\n${row.updated_at}`).digest('base64url').slice(0, 27)}"`;
  }

  /** The published journal at `slug`, or undefined (private, trashed or unknown alike). */
  findPublished(slug: string): Promise<JournalRow | undefined> {
    return SLUG_PATTERN.test(slug) ? this.journals.store.findPublished(slug) : Promise.resolve(undefined);
  }

  /** The page of a published row: from the cache when its revision and title are the same. */
  async page(row: JournalRow): Promise<Page> {
    const key = PublishService.etagOf(row);
    const hit = this.cache.get(row.id);
    if (hit && hit.key === key) return hit;
    const live = await this.journals.live(row);
    const { doc, revision } = await live.settledTask(() => ({ doc: journalDoc(live).toJSON(), revision: live.revision }));
    // What was rendered may be newer than the row read (an edit in between): tagged as what it shows.
    const shown = { ...row, revision };
    const page = { key: PublishService.etagOf(shown), etag: PublishService.etagOf(shown), html: publishedPage(row.title, doc, row.updated_at) };
    this.cache.delete(row.id);
    this.cache.set(row.id, page);
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    return page;
  }
}
