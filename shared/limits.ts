/**
 * Limits that the service and its clients share (docs/security.md explains each one).
 */

/**
 * Deepest nesting of block nodes a journal may hold (a list item in a list is two levels, a
 * quote one). Deeper markdown is refused with a 422; deeper structure sent by an editor is
 * refused before it is applied, and anything deeper that is already stored is left out on read.
 */
export const MAX_NESTING_DEPTH = 100;

/**
 * Shapes of markdown (import and edits) whose cost grows with their size faster than the text
 * does, or that make a single block too large to read or print at once. Past each, the markdown
 * is refused with a 422 naming the limit.
 */
/** Columns of one table (cells in its widest row). */
export const MAX_TABLE_COLUMNS = 100;
/** Cells of one table, header included. */
export const MAX_TABLE_CELLS = 10_000;
/** Items of one list (nested lists count on their own). */
export const MAX_LIST_ITEMS = 10_000;
/** GFM footnote definitions (`[^n]: …`) of one document or edit text. */
export const MAX_FOOTNOTE_DEFINITIONS = 1_000;
/** GFM footnote calls (`[^n]`) of one document or edit text. */
export const MAX_FOOTNOTE_CALLS = 10_000;

/**
 * Link reference definitions and links let a short text stand for a long one (`[a][r]` stores
 * the whole destination of `r`; every image inside a link stores the link again). The bytes of
 * link destinations and titles a text makes, counted each time they are stored, are at most the
 * text's own length plus this much: stored bytes stay within a small multiple of what was sent.
 */
export const LINK_EXPANSION_ALLOWANCE = 64 * 1024;

/**
 * What one REST edit may build on the main thread (its blocks are applied there in one Yjs
 * transaction): elements (blocks, list items, table rows and cells, and inline atoms: images,
 * hard breaks, raw HTML, footnote calls) and text runs (text with one set of marks). Set so that
 * the first such edit of a process, before V8 has optimised Yjs's code, stays well under the
 * 250 ms bound on a slow 2-core machine (docs/security.md).
 */
export const MAX_EDIT_ELEMENTS = 2_000;
export const MAX_EDIT_TEXT_RUNS = 25_000;
