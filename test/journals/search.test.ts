/**
 * The journal search of search_for_problems on both engines (SQLite FTS5, PostgreSQL tsvector,
 * through `dialect.textSearch`): only the caller's own journals, best match first (a title match
 * above a body match), stemmed words, edits re-indexed, deleted journals forgotten, and two
 * instances indexing the same journals at once without clashing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalRow } from '../../server/journals/store.ts';
import { JournalSearch, searchWords, type SearchedJournals } from '../../server/journals/search.ts';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { engineCases, type FreshDatabase } from '../helpers/databases.ts';

const cases = await engineCases();

/** Journals held in the test: their markdown and revision, as the journals domain would export them. */
class FakeJournals implements SearchedJournals {
  readonly docs = new Map<string, { markdown: string; revision: number }>();
  exports = 0;
  constructor(private readonly engine: StorageEngine) {}
  readonly store = {
    findById: (id: string) => this.engine.get<JournalRow>('SELECT seq, id, key_id, org_id, title, team_slug, created_at, updated_at, revision FROM journals WHERE id = ?', [id]),
  };
  async content(row: JournalRow): Promise<{ markdown: string; revision: number }> {
    this.exports++;
    return this.docs.get(row.id)!;
  }
}

async function newKey(engine: StorageEngine): Promise<{ orgId: string; keyId: string }> {
  const orgId = randomUUID();
  const keyId = randomUUID();
  const now = new Date().toISOString();
  await engine.run('INSERT INTO organizations (id, name, tier, created_at) VALUES (?, ?, ?, ?)', [orgId, 'org', 'enterprise', now]);
  await engine.run('INSERT INTO api_keys (id, org_id, name, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)', [keyId, orgId, null, randomUUID(), 'sk_', now]);
  return { orgId, keyId };
}

describe('searchWords', () => {
  it('keeps the content words of a description, once each, without operators', () => {
    expect(searchWords('Biology revision: the "cell" AND NOT membranes, cell OR x*')).toEqual(['biology', 'revision', 'cell', 'membranes']);
    expect(searchWords('the a of to')).toEqual([]);
  });
});

describe.each(cases)('$title engine', (c) => {
  describe.skipIf(!!c.skipReason)('', () => {
    let db: FreshDatabase;
    let a: StorageEngine;
    let b: StorageEngine;

    beforeAll(async () => {
      db = await c.freshDatabase();
      a = await db.open();
      // A second instance on the same database. SQLite serves one process: a second connection in
      // this one would block the thread while it waits for the file lock held across awaits.
      b = c.kind === 'sqlite' ? a : await db.open();
    });
    afterAll(async () => {
      await db?.drop();
    });

    async function journal(j: FakeJournals, key: { orgId: string; keyId: string }, title: string, markdown: string): Promise<string> {
      const id = randomUUID();
      const now = new Date().toISOString();
      await a.run('INSERT INTO journals (id, key_id, org_id, title, created_at, updated_at, revision) VALUES (?, ?, ?, ?, ?, ?, 1)', [id, key.keyId, key.orgId, title, now, now]);
      j.docs.set(id, { markdown, revision: 1 });
      return id;
    }

    async function edit(j: FakeJournals, id: string, markdown: string): Promise<void> {
      const revision = j.docs.get(id)!.revision + 1;
      await a.run('UPDATE journals SET revision = ?, updated_at = ? WHERE id = ?', [revision, new Date().toISOString(), id]);
      j.docs.set(id, { markdown, revision });
    }

    it("finds the caller's own journals only, best match first", async () => {
      const j = new FakeJournals(a);
      const search = new JournalSearch(a, j);
      const mine = await newKey(a);
      const stranger = await newKey(a);
      await journal(j, mine, 'Shopping', '# Shopping\n\nMilk and bread.');
      await journal(j, mine, 'Chemistry notes', 'Acids and bases. A little photosynthesis too.');
      await journal(j, mine, 'Photosynthesis', 'How plants turn light into sugar.');
      await journal(j, stranger, 'Photosynthesis secrets', 'Photosynthesis, photosynthesis, photosynthesis.');

      const found = await search.excerpts(mine.keyId, 'photosynthesis revision');
      // The title match ranks above the passing mention; the stranger's journal never appears.
      expect(found).toEqual(['# Photosynthesis\n\nHow plants turn light into sugar.', '# Chemistry notes\n\nAcids and bases. A little photosynthesis too.']);
      // Stemmed on both engines: "plant" finds "plants".
      expect(await search.excerpts(mine.keyId, 'plant')).toEqual(['# Photosynthesis\n\nHow plants turn light into sugar.']);
      expect(await search.excerpts(mine.keyId, 'the and of')).toEqual([]);
      expect(await search.excerpts(mine.keyId, 'zebra')).toEqual([]);
      // Quotes and operators in the description are plain words, not query syntax.
      expect(await search.excerpts(mine.keyId, `milk" OR "x" NOT 'bread' | !sugar & (light`)).toHaveLength(2);
      expect(await search.excerpts(stranger.keyId, 'photosynthesis')).toEqual(['# Photosynthesis secrets\n\nPhotosynthesis, photosynthesis, photosynthesis.']);
    });

    it('indexes lazily: unchanged journals are not exported again, edits are re-indexed, deleted journals forgotten', async () => {
      const j = new FakeJournals(a);
      const search = new JournalSearch(a, j);
      const key = await newKey(a);
      const id = await journal(j, key, 'Chemistry', 'Placeholder text.');
      expect(await search.excerpts(key.keyId, 'isotope')).toEqual([]);
      expect(j.exports).toBe(1);
      expect(await search.refresh(key.keyId)).toBe(0);
      expect(j.exports).toBe(1);

      await edit(j, id, 'An isotope has a different number of neutrons.');
      expect(await search.excerpts(key.keyId, 'isotopes')).toEqual(['# Chemistry\n\nAn isotope has a different number of neutrons.']);
      expect(j.exports).toBe(2);

      const { seq } = (await j.store.findById(id))!;
      expect(await a.get('SELECT revision FROM journal_search_state WHERE journal_seq = ?', [seq])).toEqual({ revision: 2 });
      await a.run('DELETE FROM journals WHERE id = ?', [id]);
      const ts = a.dialect.textSearch;
      const left = await a.get<{ n: number }>(`SELECT COUNT(*) AS n FROM (${ts.matches('journal_search', [1])}) m`, [ts.anyWord(['neutrons'])]);
      expect(left!.n).toBe(0);
      expect(await a.get('SELECT revision FROM journal_search_state WHERE journal_seq = ?', [seq])).toBeUndefined();
      expect(await search.excerpts(key.keyId, 'isotope')).toEqual([]);
    });

    it('two instances indexing the same journals at once: no clash, one entry each, the latest revision kept', async () => {
      const ja = new FakeJournals(a);
      const key = await newKey(a);
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await journal(ja, key, `Topic ${i}`, `Entry ${i} about volcanoes and magma.`));
      const jb = new FakeJournals(b);
      for (const [id, doc] of ja.docs) jb.docs.set(id, doc);
      const searches = [new JournalSearch(a, ja), new JournalSearch(b, jb), new JournalSearch(a, ja), new JournalSearch(b, jb)];
      const results = await Promise.all(searches.map((s) => s.excerpts(key.keyId, 'volcanoes')));
      for (const r of results) expect(r).toHaveLength(5);
      const entries = await a.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM journal_search s JOIN journals j ON j.seq = s.rowid WHERE j.key_id = ?',
        [key.keyId],
      );
      expect(entries!.n).toBe(12);

      // An instance that read an older revision (before an edit) does not overwrite a newer one.
      await edit(ja, ids[0]!, 'New text about glaciers.');
      await new JournalSearch(a, ja).refresh(key.keyId);
      const row = (await ja.store.findById(ids[0]!))!;
      const late = new JournalSearch(b, jb) as unknown as { index(row: JournalRow, markdown: string, revision: number): Promise<boolean> };
      expect(await late.index(row, 'Old text about volcanoes.', 1)).toBe(false);
      expect(await new JournalSearch(b, jb).excerpts(key.keyId, 'glaciers')).toEqual(['# Topic 0\n\nNew text about glaciers.']);
    });
  });
});
