/**
 * Publishing (issue 32): POST /v1/journals/{id}/publish and /unpublish, the page at /p/{slug}
 * without a key: sanitised server-rendered HTML, ETag and 304, updated after an edit, a 404 at
 * once after unpublish, delete or on another instance (PostgreSQL project: two servers on one
 * database); the deleted record's publish_status and publish_subdomain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, testEngine, type TestServer } from '../helpers/server.ts';

let a: TestServer;
let b: TestServer;
let c: Client;
let other: Client;
beforeAll(async () => {
  a = await startTestServer();
  b = testEngine === 'postgres' ? await startTestServer({ dataDir: a.dataDir }) : a;
  c = await a.newClient();
  other = await a.newClient();
});
afterAll(async () => {
  if (b !== a) await b.close();
  await a.close();
});

const page = (server: TestServer, slug: string, headers: Record<string, string> = {}) => fetch(`${server.url}/p/${slug}`, { headers });
const balance = (client: Client): Promise<number> => a.svc.ctx.billing.credits.balance(client.orgId);

describe('publishing', () => {
  it('publishes at /p/{slug} without a key, with an ETag, and the page follows edits', async () => {
    const id = await c.importMarkdown('# Cells\n\nThe *cell* is the unit of life.\n', 'Cell biology');
    const before = await balance(c);
    const pub = await c.post(`/v1/journals/${id}/publish`, { slug: `cells-${testEngine}` });
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ publish_status: 'published', slug: `cells-${testEngine}`, url: expect.stringMatching(new RegExp(`/p/cells-${testEngine}$`)) });
    expect(await balance(c)).toBe(before - 50);
    const res = await page(a, `cells-${testEngine}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<title>Cell biology</title>');
    expect(html).toContain('<p>The <em>cell</em> is the unit of life.</p>');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    expect((await page(a, `cells-${testEngine}`, { 'If-None-Match': etag })).status).toBe(304);
    // An edit changes the page and its ETag.
    const block = (await c.model(id)).model.content[1].attrs.id;
    expect((await c.edit(id, [{ type: 'update_node', nodeId: block, nodeType: 'paragraph', params: [{ content: 'Cells **divide**.' }] }])).status).toBe(200);
    const after = await page(a, `cells-${testEngine}`, { 'If-None-Match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(await after.text()).toContain('<p>Cells <strong>divide</strong>.</p>');
    // A rename too.
    await c.patch('/v1/journals/editor/rename', { journal_id: id, title: 'Cells & <life>' });
    expect(await (await page(a, `cells-${testEngine}`)).text()).toContain('<title>Cells &amp; &lt;life&gt;</title>');
  });

  it('renders hostile content as text: nothing on the page can run', async () => {
    const md = [
      '<script>alert(1)</script>',
      '',
      'Hi <img src=x onerror=alert(2)> there <b onclick="x()">b</b>',
      '',
      '[link](javascript:alert(3)) and ![img](javascript:alert(4)) and [ok](https://example.com/a?b="c")',
      '',
      '```html" onmouseover="x',
      '<iframe src=//evil>',
      '```',
      '',
    ].join('\n');
    const id = await c.importMarkdown(md, '<script>t</script>');
    const slug = (await c.post(`/v1/journals/${id}/publish`, {})).body.slug as string;
    expect(slug).toMatch(/^script-t-script-[0-9a-f]{6}$/);
    const html = await (await page(a, slug)).text();
    const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
    for (const t of tags) {
      expect(t).not.toMatch(/^<(script|iframe|object|embed|img src="x|b )/i);
      expect(t).not.toMatch(/\son\w+=/i);
      expect(t).not.toMatch(/javascript:/i);
    }
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<a href="https://example.com/a?b=%22c%22" rel="nofollow noopener noreferrer">ok</a>');
  });

  it('keeps the slug on a second publish, refuses a taken or invalid one, and another key gets 404', async () => {
    const id = await c.importMarkdown('x\n', 'Keep');
    const first = (await c.post(`/v1/journals/${id}/publish`, {})).body.slug;
    expect((await c.post(`/v1/journals/${id}/publish`, {})).body.slug).toBe(first);
    const id2 = await c.importMarkdown('y\n', 'Other');
    const before = await balance(c);
    const taken = await c.post(`/v1/journals/${id2}/publish`, { slug: first });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toContain('taken');
    for (const slug of ['A', 'ab', '-abc', 'abc-', 'a b c', 'x'.repeat(64), 'ünï']) {
      const r = await c.post(`/v1/journals/${id2}/publish`, { slug });
      expect(r.status, slug).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'slug']);
    }
    expect(await balance(c)).toBe(before);
    expect((await other.post(`/v1/journals/${id}/publish`, {})).status).toBe(404);
    expect((await other.post(`/v1/journals/${id}/unpublish`)).status).toBe(404);
    expect((await page(a, 'no-such-page')).status).toBe(404);
    expect((await page(a, '%E0%A4%A')).status).toBe(404);
  });

  it('unpublish is a 404 at once, on every instance; delete too, and a restore publishes again', async () => {
    const id = await c.importMarkdown('# Shared\n', 'Shared');
    const slug = (await c.post(`/v1/journals/${id}/publish`, { slug: `shared-${testEngine}` })).body.slug;
    expect((await page(a, slug)).status).toBe(200);
    expect((await page(b, slug)).status).toBe(200); // cached on b now
    const un = await c.post(`/v1/journals/${id}/unpublish`);
    expect(un.body).toMatchObject({ publish_status: 'private', slug: null, url: null });
    expect((await page(a, slug)).status).toBe(404);
    expect((await page(b, slug)).status).toBe(404);
    await c.post(`/v1/journals/${id}/publish`, { slug });
    expect((await page(b, slug)).status).toBe(200);
    const del = await c.del(`/v1/journals/editor/delete/${id}`);
    expect(del.body.deleted_journal_data).toMatchObject({ publish_status: 'published', publish_subdomain: slug });
    expect((await page(a, slug)).status).toBe(404);
    expect((await page(b, slug)).status).toBe(404);
    await c.post(`/v1/journals/editor/restore/${id}`);
    expect((await page(b, slug)).status).toBe(200);
  });
});
