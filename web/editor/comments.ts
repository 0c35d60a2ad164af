/**
 * Comments in the editor's margin (docs/comments.md). The service keeps them in the journal's
 * Y.Doc (the Y.Map COMMENTS_ROOT), so this panel hears of every change live through the editor's
 * own connection; with a key it then reads them through REST (where each sits now, `detached`),
 * and creates, replies, resolves, reopens and deletes through REST. With a link's token alone it
 * shows them as stored, read-only.
 */
import type { Node as PMNode } from 'prosemirror-model';
import { Plugin, PluginKey } from 'prosemirror-state';
import { Decoration, DecorationSet, type EditorView } from 'prosemirror-view';
import type * as Y from 'yjs';
import { COMMENTS_ROOT, type StoredComment, type StoredReplyEntry } from '../../shared/comments.ts';
import type { Api, CommentView } from '../api.ts';
import { clear, h, when } from '../dom.ts';
import { ask, showError } from '../ui.ts';

/** The block of the selection and the offsets of the selection in its text (the whole block when nothing is selected). */
export function selectionAnchor(view: EditorView): { block_id: string; from?: number; to?: number; quote: string } | null {
  const { $from, from, to, empty } = view.state.selection;
  if ($from.depth < 1) return null;
  const block = $from.node(1);
  const id = block.attrs.id as string | null;
  if (!id) return null;
  const start = $from.before(1) + 1;
  const end = $from.after(1) - 1;
  if (empty) return { block_id: id, quote: block.textContent };
  const doc = view.state.doc;
  const a = doc.textBetween(start, from, '', '').length;
  const b = doc.textBetween(start, Math.min(to, end), '', '').length;
  if (b <= a) return { block_id: id, quote: block.textContent };
  return { block_id: id, from: a, to: b, quote: doc.textBetween(from, Math.min(to, end), '', '') };
}

/** The document positions of [from, to) of a block's text (offsets as the service counts them), or null. */
export function rangeIn(doc: PMNode, blockId: string, from: number, to: number): { from: number; to: number } | null {
  let block: { node: PMNode; pos: number } | undefined;
  doc.descendants((node, pos) => {
    if (block) return false;
    if (node.attrs.id === blockId) {
      block = { node, pos };
      return false;
    }
    return true;
  });
  if (!block) return null;
  let seen = 0;
  let start: number | undefined;
  let end: number | undefined;
  block.node.descendants((node, pos) => {
    if (end !== undefined) return false;
    if (!node.isText) return true;
    const len = node.text!.length;
    const at = block!.pos + 1 + pos;
    if (start === undefined && from < seen + len) start = at + (from - seen);
    if (start !== undefined && to <= seen + len) end = at + (to - seen);
    seen += len;
    return false;
  });
  return start !== undefined && end !== undefined && end > start ? { from: start, to: end } : null;
}

const highlightKey = new PluginKey<DecorationSet>('comment-highlights');

/** Marks the text of open comments in the editor (the panel hands it the comments it shows). */
export function commentHighlights(): Plugin<DecorationSet> {
  return new Plugin<DecorationSet>({
    key: highlightKey,
    state: {
      init: () => DecorationSet.empty,
      apply(tr, set) {
        const comments = tr.getMeta(highlightKey) as CommentView[] | undefined;
        if (!comments) return set.map(tr.mapping, tr.doc);
        const decos: Decoration[] = [];
        for (const c of comments) {
          if (c.detached || c.resolved || c.from === null || c.to === null) continue;
          const r = rangeIn(tr.doc, c.block_id, c.from, c.to);
          if (r) decos.push(Decoration.inline(r.from, r.to, { class: 'comment-range', 'data-comment-id': c.comment_id }));
        }
        return DecorationSet.create(tr.doc, decos);
      },
    },
    props: { decorations: (state) => highlightKey.getState(state) },
  });
}

export class CommentsPanel {
  readonly dom: HTMLElement;
  private readonly list: HTMLElement;
  private readonly addButton: HTMLButtonElement;
  private view: EditorView | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly map: Y.Map<StoredComment | StoredReplyEntry>;
  private readonly observer = () => this.schedule();
  /** The text changed: where each comment sits (its quote, detached) is read again a little later. */
  private readonly onUpdate = () => {
    if (this.map.size > 0) this.schedule(400);
  };
  private destroyed = false;
  private readonly doc: Y.Doc;

  constructor(
    doc: Y.Doc,
    private readonly journalId: string,
    private readonly api: Api | null,
    private readonly messages: HTMLElement,
    private readonly authorName: () => string,
  ) {
    this.map = doc.getMap<StoredComment | StoredReplyEntry>(COMMENTS_ROOT);
    this.list = h('div', { class: 'comment-list', id: 'comment-list' });
    this.addButton = h(
      'button',
      { type: 'button', id: 'add-comment', disabled: true, title: 'Comment on the selected text (or on the block of the cursor)', onclick: () => void this.add() },
      'Comment',
    );
    this.dom = h('section', { class: 'comments', id: 'comments', 'aria-label': 'Comments' }, h('div', { class: 'comments-head' }, h('h2', {}, 'Comments'), api ? this.addButton : null), this.list);
    this.map.observe(this.observer);
    if (api) doc.on('update', this.onUpdate);
    this.doc = doc;
    this.schedule(0);
  }

  attach(view: EditorView): void {
    this.view = view;
    this.addButton.disabled = false;
    if (this.shown.length) view.dispatch(view.state.tr.setMeta(highlightKey, this.shown));
  }
  private shown: CommentView[] = [];

  /** Read-only: no new comments, replies or changes (the journal was deleted, or the connection closed). */
  setReadOnly(readOnly: boolean): void {
    this.dom.classList.toggle('read-only', readOnly);
    this.addButton.disabled = readOnly || !this.view;
    for (const b of this.list.querySelectorAll('button, input')) (b as HTMLButtonElement).disabled = readOnly;
  }

  private schedule(ms = 60): void {
    // A sooner refresh replaces a later one; a later one never delays a sooner one.
    const at = Date.now() + ms;
    if (this.timer !== undefined && this.due <= at) return;
    clearTimeout(this.timer);
    this.due = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, ms);
  }
  private due = 0;

  private async refresh(): Promise<void> {
    if (this.destroyed) return;
    if (!this.api) {
      const values = [...this.map.values()] as (StoredComment | StoredReplyEntry)[];
      const replies = values.filter((r): r is StoredReplyEntry => !!r && typeof (r as StoredReplyEntry).reply_to === 'string');
      const comments = values.filter((c): c is StoredComment => !!c && typeof (c as StoredComment).comment_id === 'string');
      comments.sort((a, b) => a.created_at.localeCompare(b.created_at));
      return this.render(comments.map((c) => storedView(c, replies.filter((r) => r.reply_to === c.comment_id).sort((a, b) => a.created_at.localeCompare(b.created_at)))));
    }
    try {
      this.render((await this.api.comments(this.journalId)).comments);
    } catch (err) {
      if (!this.destroyed) showError(this.messages, err);
    }
  }

  private render(comments: CommentView[]): void {
    if (this.destroyed) return;
    const readOnly = this.dom.classList.contains('read-only');
    clear(this.list);
    if (this.view && !this.view.isDestroyed) this.view.dispatch(this.view.state.tr.setMeta(highlightKey, comments));
    this.shown = comments;
    if (comments.length === 0) this.list.append(h('p', { class: 'empty' }, this.api ? 'Select text and press Comment.' : 'No comments.'));
    for (const c of comments) this.list.append(this.thread(c, readOnly));
  }

  private thread(c: CommentView, readOnly: boolean): HTMLElement {
    const who = (a: CommentView['author']) => a.name ?? `key ${a.key_id.slice(0, 8)}`;
    const replyInput = h('input', { class: 'reply-input', placeholder: 'Reply…', maxLength: 10_000, 'aria-label': 'Reply', disabled: readOnly });
    const api = this.api;
    const act = (label: string, cls: string, f: () => Promise<unknown>) =>
      h(
        'button',
        {
          type: 'button',
          class: cls,
          disabled: readOnly,
          onclick: async () => {
            try {
              await f();
              this.schedule(0);
            } catch (err) {
              showError(this.messages, err);
            }
          },
        },
        label,
      );
    return h(
      'article',
      { class: `thread${c.resolved ? ' resolved' : ''}${c.detached ? ' detached' : ''}`, dataset: { commentId: c.comment_id, blockId: c.block_id } },
      h('blockquote', { class: 'quote' }, c.quote || '(empty block)'),
      c.detached ? h('p', { class: 'detached-note' }, 'The commented text was deleted.') : null,
      h('p', { class: 'body' }, h('strong', {}, who(c.author)), ' ', c.body),
      h('p', { class: 'meta' }, when(c.created_at), c.resolved ? ' · resolved' : ''),
      ...c.replies.map((r) => h('p', { class: 'reply' }, h('strong', {}, who(r.author)), ' ', r.body)),
      api
        ? h(
            'form',
            {
              class: 'reply-form',
              onsubmit: async (e: Event) => {
                e.preventDefault();
                const text = replyInput.value.trim();
                if (!text) return;
                try {
                  await api.reply(this.journalId, c.comment_id, text, this.authorName());
                  replyInput.value = '';
                  this.schedule(0);
                } catch (err) {
                  showError(this.messages, err);
                }
              },
            },
            replyInput,
          )
        : null,
      api
        ? h(
            'div',
            { class: 'thread-actions' },
            c.resolved ? act('Reopen', 'reopen', () => api.resolveComment(this.journalId, c.comment_id, false)) : act('Resolve', 'resolve', () => api.resolveComment(this.journalId, c.comment_id, true)),
            act('Delete', 'delete-comment danger', () => api.deleteComment(this.journalId, c.comment_id)),
          )
        : null,
    );
  }

  private async add(): Promise<void> {
    if (!this.view || !this.api) return;
    const anchor = selectionAnchor(this.view);
    if (!anchor) return;
    const v = await ask('Comment', [{ name: 'body', label: `On “${anchor.quote.slice(0, 80) || 'this block'}”`, required: true }], { ok: 'Comment' });
    if (!v || !v.body!.trim()) return;
    try {
      const { quote: _q, ...where } = anchor;
      await this.api.comment(this.journalId, { ...where, body: v.body!.trim(), author_name: this.authorName() });
      this.schedule(0);
    } catch (err) {
      showError(this.messages, err);
    }
  }

  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.timer);
    this.map.unobserve(this.observer);
    this.doc.off('update', this.onUpdate);
  }
}

/** A stored comment shown without the service's resolution (a link's token cannot call REST). */
function storedView(c: StoredComment, replies: StoredReplyEntry[]): CommentView {
  return {
    comment_id: c.comment_id,
    journal_id: '',
    block_id: c.block_id,
    from: null,
    to: null,
    whole_block: !c.from,
    quote: c.quote,
    body: c.body,
    author: c.author,
    resolved: c.resolved,
    resolved_at: c.resolved_at,
    detached: false,
    replies: replies.map(({ reply_to: _to, ...r }) => r),
    created_at: c.created_at,
  };
}
