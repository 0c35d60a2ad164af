/**
 * Markdown <-> ProseMirror conversion for the journal schema (CommonMark 0.31.2 + GFM tables,
 * task lists, strikethrough and autolink literals). Pure functions: no I/O, no Node-only APIs.
 * Library choice and the known, deliberate differences: docs/markdown-fidelity.md.
 */
export { markdownToDoc, parseMarkdown, tokenize, MarkdownLimitError, type ParsedMarkdown } from './parse.ts';
export { docToMarkdown, blocksToMarkdown, printTopBlock, type PrintedBlock } from './serialize.ts';
