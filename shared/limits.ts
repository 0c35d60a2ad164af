/**
 * Limits that the service and its clients share (docs/security.md explains each one).
 */

/**
 * Deepest nesting of block nodes a journal may hold (a list item in a list is two levels, a
 * quote one). Deeper markdown is refused with a 422; deeper structure sent by an editor is
 * refused before it is applied, and anything deeper that is already stored is left out on read.
 */
export const MAX_NESTING_DEPTH = 100;
