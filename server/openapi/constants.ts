/** Wording shared by the document's description and its error answers. */
export const MAX_BODY_BYTES_DOC = '2 MiB';
export const PAGE_DOC = 'Lists are paged newest first: `page_size` (1-100, default 20) and `page_token` (the `next_page_token` of the previous page).';
