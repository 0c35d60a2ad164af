/** publish/html.ts and nesting/tree.ts without a server: the page's escaping and URL rules, slugs, the tree's pure helpers. */
import { describe, expect, it } from 'vitest';
import { escapeHtml, publishedPage, safeUrl } from '../../server/journals/publish/html.ts';
import { slugFromTitle } from '../../server/journals/publish/service.ts';
import { SLUG_PATTERN } from '../../server/journals/publish/endpoints.ts';
import { descendants, makesCycle, placeAt } from '../../server/journals/nesting/tree.ts';

describe('published page', () => {
  it('escapes text and attributes', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;');
  });

  it('keeps only safe link and image addresses', () => {
    expect(safeUrl('https://example.com/a b', 'link')).toBe('https://example.com/a%20b');
    expect(safeUrl('mailto:a@b.c', 'link')).toBe('mailto:a@b.c');
    expect(safeUrl('#part', 'link')).toBe('#part');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,<script>', 'vbscript:x', '//evil.com', 'relative/path', 42]) expect(safeUrl(bad, 'link')).toBeUndefined();
    expect(safeUrl('data:image/png;base64,AAAA', 'image')).toBe('data:image/png;base64,AAAA');
    expect(safeUrl('data:image/svg+xml;base64,AAAA', 'image')).toBeUndefined();
    expect(safeUrl('mailto:a@b.c', 'image')).toBeUndefined();
  });

  it('renders every block kind with no live HTML', () => {
    const doc = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 9 }, content: [{ type: 'text', text: 'T<i>' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }, { type: 'strong' }] }, { type: 'hard_break' }, { type: 'html_inline', attrs: { html: '<b onclick=x>' } }, { type: 'image', attrs: { src: 'javascript:x', alt: 'a"b' } }] },
        { type: 'html_block', attrs: { html: '<script>alert(1)</script>' } },
        { type: 'code_block', attrs: { language: 'js" onload="x' }, content: [{ type: 'text', text: '</code><script>' }] },
        { type: 'bullet_list', content: [{ type: 'list_item', attrs: { checked: true }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'done' }] }] }] },
        { type: 'ordered_list', attrs: { order: 3 }, content: [{ type: 'list_item', content: [] }] },
        { type: 'table', content: [{ type: 'table_row', content: [{ type: 'table_header', attrs: { align: 'left;background:url(x)' }, content: [{ type: 'text', text: 'h' }] }] }] },
        { type: 'horizontal_rule' },
        { type: 'blockquote', content: [{ type: 'paragraph' }] },
      ],
    };
    const html = publishedPage('Title', doc, '2030-01-01T00:00:00Z');
    expect(html).toContain('<h6>T&lt;i&gt;</h6>');
    expect(html).toContain('<strong>x</strong><br><code class="raw-html">&lt;b onclick=x&gt;</code>[a&quot;b]');
    expect(html).toContain('<pre class="raw-html"><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>');
    expect(html).toContain('<pre><code>&lt;/code&gt;&lt;script&gt;</code></pre>');
    expect(html).toContain('<li><input type="checkbox" checked disabled> <p>done</p>\n</li>');
    expect(html).toContain('<ol start="3">');
    expect(html).toContain('<th>h</th>');
    for (const tag of html.match(/<[a-z][^>]*>/gi)!) expect(tag).not.toMatch(/^<script|javascript:|\son\w+=|url\(/i);
    expect(html).toContain('<h1 class="journal-title">Title</h1>');
    // A journal that opens with its title as a heading does not get it twice.
    expect(publishedPage('T<i>', doc, '')).not.toContain('journal-title');
  });

  it('makes slugs that are DNS labels', () => {
    expect(slugFromTitle('Cell Biology: Ünit 1!', 'abc123')).toBe('cell-biology-unit-1-abc123');
    expect(slugFromTitle('???', 'abc123')).toBe('journal-abc123');
    expect(slugFromTitle('x'.repeat(300), 'abc123')).toMatch(SLUG_PATTERN);
  });
});

describe('journal tree', () => {
  const links = [
    { id: 'a', parent_id: null },
    { id: 'b', parent_id: 'a' },
    { id: 'c', parent_id: 'b' },
    { id: 'd', parent_id: 'a' },
    { id: 'x', parent_id: null },
  ];
  it('finds descendants, parents first, and survives a stored cycle', () => {
    expect(descendants(links, 'a')).toEqual(['b', 'd', 'c']);
    expect(descendants([{ id: 'p', parent_id: 'q' }, { id: 'q', parent_id: 'p' }], 'p')).toEqual(['q']);
  });
  it('refuses a parent under the journal itself', () => {
    expect(makesCycle(links, 'a', 'a')).toBe(true);
    expect(makesCycle(links, 'a', 'c')).toBe(true);
    expect(makesCycle(links, 'c', 'a')).toBe(false);
    expect(makesCycle(links, 'a', null)).toBe(false);
  });
  it('places an id among its siblings', () => {
    expect(placeAt(['a', 'b', 'c'], 'c', 0)).toEqual(['c', 'a', 'b']);
    expect(placeAt(['a', 'b'], 'z', undefined)).toEqual(['a', 'b', 'z']);
    expect(placeAt(['a', 'b'], 'a', 99)).toEqual(['b', 'a']);
  });
});
