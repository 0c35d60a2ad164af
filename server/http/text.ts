/**
 * Rules for text a person writes in a request (names, titles, descriptions), shared by every
 * endpoint's schema: C0 control characters (U+0000–U+001F) are refused with a 422 naming the field,
 * and so is a blank value. A name is one line: every C0 control is refused, tab, newline and CR
 * too. A description may span lines: tab, newline and CR are kept, the other controls refused.
 * Content (markdown, code, HTML blocks, editor text, text to read) is not checked here: it is kept
 * verbatim, controls included. Each rule is also written into the schema as the JSON Schema
 * `pattern` it enforces, so the OpenAPI document says what the service checks.
 */
import * as z from 'zod';

/** Any C0 control (U+0000–U+001F). */
const C0 = /[\u0000-\u001f]/;
/** A C0 control other than tab, newline and carriage return. */
const C0_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** The same rules as JSON Schema patterns (ECMAScript, unanchored unless anchored here). */
const NAME_PATTERN = '^[^\\u0000-\\u001f]*[^\\s\\u0000-\\u001f][^\\u0000-\\u001f]*$';
const TEXT_PATTERN = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]*[^\\s\\u0000-\\u001f][^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]*$';
const NO_C0_PATTERN = '^[^\\u0000-\\u001f]*$';

export const hasControl = (s: string): boolean => C0.test(s);
export const hasControlButLineBreaks = (s: string): boolean => C0_BUT_LINE_BREAKS.test(s);

const controlMessage = (what: string) => `${what} must not contain control characters (U+0000–U+001F)`;
const controlButLineBreaksMessage = (what: string) => `${what} must not contain control characters (U+0000–U+001F other than tab, newline and carriage return)`;

/** A one-line name of at most `max` characters: not blank, no C0 control. */
export const nameText = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is limited to ${max} characters`)
    .refine((s) => s.trim().length > 0, `${what} must not be blank`)
    .refine((s) => !hasControl(s), controlMessage(what))
    .meta({ pattern: NAME_PATTERN });

/** Text a person writes over several lines (a description): not blank, no C0 control but tab, newline and CR. */
export const personText = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is limited to ${max} characters`)
    .refine((s) => s.trim().length > 0, `${what} must not be blank`)
    .refine((s) => !hasControlButLineBreaks(s), controlButLineBreaksMessage(what))
    .meta({ pattern: TEXT_PATTERN });

/** An id sent in a body or query (1 to `max` characters, no C0 control: no id holds one). */
export const idText = (max: number, what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(max, `${what} is limited to ${max} characters`)
    .refine((s) => !hasControl(s), controlMessage(what))
    .meta({ pattern: '^[^\\u0000-\\u001f]+$' });

/** A one-line token that may be empty (an identifier, a voice name): no C0 control. */
export const lineText = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is limited to ${max} characters`)
    .refine((s) => !hasControl(s), controlMessage(what))
    .meta({ pattern: NO_C0_PATTERN });
