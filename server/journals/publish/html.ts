/**
 * A journal as a standalone, sanitised HTML page (its published page, docs/publishing.md). Pure:
 * from the ProseMirror JSON of the journal to a string. Everything the journal holds is text to
 * this renderer: every value is escaped, raw HTML blocks and inline HTML are shown as code (never
 * interpreted), links keep only http(s), mailto and same-page (#) targets and images only http(s)
 * and data:image sources; no attribute carries anything else. The page has no script, and is
 * served with a Content-Security-Policy that allows none.
 */

interface PMJson {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PMJson[];
  text?: string;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

/** A URL safe to put in href/src, or undefined. */
export function safeUrl(raw: unknown, kind: 'link' | 'image'): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const url = raw.trim();
  if (kind === 'link' && url.startsWith('#')) return url;
  if (kind === 'image' && /^data:image\/(png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+$/i.test(url)) return url;
  try {
    const u = new URL(url);
    const ok = kind === 'link' ? ['http:', 'https:', 'mailto:'] : ['http:', 'https:'];
    return ok.includes(u.protocol) ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

function marksOpen(marks: PMJson['marks']): [string, string] {
  let open = '';
  let close = '';
  for (const m of marks ?? []) {
    let tag: [string, string] | undefined;
    if (m.type === 'strong') tag = ['<strong>', '</strong>'];
    else if (m.type === 'em') tag = ['<em>', '</em>'];
    else if (m.type === 'code') tag = ['<code>', '</code>'];
    else if (m.type === 'strikethrough') tag = ['<del>', '</del>'];
    else if (m.type === 'link') {
      const href = safeUrl(m.attrs?.href, 'link');
      tag = href ? [`<a href="${escapeHtml(href)}" rel="nofollow noopener noreferrer">`, '</a>'] : ['', ''];
    }
    if (tag) {
      open += tag[0];
      close = tag[1] + close;
    }
  }
  return [open, close];
}

function inline(n: PMJson): string {
  if (n.type === 'text') {
    const [o, c] = marksOpen(n.marks);
    return o + escapeHtml(n.text ?? '') + c;
  }
  const [o, c] = marksOpen((n.attrs?.marks as PMJson['marks']) ?? undefined);
  if (n.type === 'hard_break') return '<br>';
  if (n.type === 'image') {
    const src = safeUrl(n.attrs?.src, 'image');
    const alt = escapeHtml(String(n.attrs?.alt ?? ''));
    return o + (src ? `<img src="${escapeHtml(src)}" alt="${alt}" loading="lazy">` : `[${alt}]`) + c;
  }
  if (n.type === 'html_inline') return o + `<code class="raw-html">${escapeHtml(String(n.attrs?.html ?? ''))}</code>` + c;
  return children(n);
}

function children(n: PMJson): string {
  return (n.content ?? []).map(render).join('');
}

function render(n: PMJson): string {
  switch (n.type) {
    case 'doc':
      return children(n);
    case 'paragraph':
      return `<p>${(n.content ?? []).map(inline).join('')}</p>\n`;
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(n.attrs?.level) || 1));
      return `<h${level}>${(n.content ?? []).map(inline).join('')}</h${level}>\n`;
    }
    case 'blockquote':
      return `<blockquote>\n${children(n)}</blockquote>\n`;
    case 'bullet_list':
      return `<ul>\n${children(n)}</ul>\n`;
    case 'ordered_list': {
      const start = Number(n.attrs?.order);
      return `<ol${Number.isInteger(start) && start !== 1 ? ` start="${start}"` : ''}>\n${children(n)}</ol>\n`;
    }
    case 'list_item': {
      const checked = n.attrs?.checked;
      const box = checked === true ? '<input type="checkbox" checked disabled> ' : checked === false ? '<input type="checkbox" disabled> ' : '';
      return `<li>${box}${children(n)}</li>\n`;
    }
    case 'code_block': {
      const lang = typeof n.attrs?.language === 'string' && /^[\w+-]{1,40}$/.test(n.attrs.language) ? ` class="language-${n.attrs.language}"` : '';
      return `<pre><code${lang}>${escapeHtml((n.content ?? []).map((t) => t.text ?? '').join(''))}</code></pre>\n`;
    }
    case 'horizontal_rule':
      return '<hr>\n';
    case 'html_block':
      return `<pre class="raw-html"><code>${escapeHtml(String(n.attrs?.html ?? ''))}</code></pre>\n`;
    case 'table':
      return `<table>\n${children(n)}</table>\n`;
    case 'table_row':
      return `<tr>${children(n)}</tr>\n`;
    case 'table_header':
    case 'table_cell': {
      const tag = n.type === 'table_header' ? 'th' : 'td';
      const align = ['left', 'right', 'center'].includes(String(n.attrs?.align)) ? ` style="text-align:${String(n.attrs!.align)}"` : '';
      return `<${tag}${align}>${(n.content ?? []).map(inline).join('')}</${tag}>`;
    }
    default:
      return n.content ? children(n) : n.text !== undefined ? escapeHtml(n.text) : '';
  }
}

/** The page's Content-Security-Policy: no script at all, styles inline only, images from anywhere. */
export const PUBLISHED_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE =
  'body{font:17px/1.6 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}' +
  'pre{background:#f4f4f5;padding:.75rem;overflow:auto}code{font-family:ui-monospace,monospace}' +
  'blockquote{border-left:3px solid #ccc;margin-left:0;padding-left:1rem;color:#444}img{max-width:100%}' +
  'table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem}footer{margin-top:3rem;color:#777;font-size:.85rem}';

const plain = (n: PMJson): string => (n.text ?? '') + (n.content ?? []).map(plain).join('');

/** The whole page of a published journal (its title as a heading unless the journal opens with that heading). */
export function publishedPage(title: string, doc: unknown, updatedAt: string): string {
  const first = (doc as PMJson).content?.[0];
  const opensWithTitle = first?.type === 'heading' && plain(first).trim() === title.trim();
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>\n<body><article>\n` +
    (opensWithTitle ? '' : `<h1 class="journal-title">${escapeHtml(title)}</h1>\n`) +
    render(doc as PMJson) +
    `</article>\n<footer>Published journal · updated ${escapeHtml(updatedAt)}</footer>\n</body></html>\n`
  );
}
