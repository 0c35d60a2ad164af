/**
 * The request side of a content source: the text-field rules and the `{journal_id | text}` choice
 * that video, flashcard and practice requests share, and reading the chosen source as a
 * SourceInput (a journal's model as it is now, or the text).
 */
import * as z from 'zod';
import type { Principal } from '../auth/keys.ts';
import { invalid } from '../http/errors.ts';
import type { JournalService } from '../journals/service.ts';
import type { PMJSON, SourceInput } from './text-blocks.ts';

/**
 * The `text` of a source: content, kept verbatim (controls included), at most `max` characters;
 * the document says it must hold a non-blank character (exactlyOneSource checks it).
 */
export const sourceText = (max: number) => z.string().max(max, `text is limited to ${max} characters`).meta({ pattern: '\\S' });

/** Written into the JSON Schema of a body with `journal_id` and `text`: exactly one of them. */
export const EXACTLY_ONE_SOURCE = {
  oneOf: [{ required: ['journal_id'] }, { required: ['text'] }],
  description: 'exactly one of `journal_id` and `text`',
};

/** `{journal_id | text}`: exactly one, or a 422 at `body`; a blank text is a 422 at `body.text`. */
export function exactlyOneSource(b: { journal_id?: string; text?: string }): void {
  const n = Number(b.journal_id !== undefined) + Number(b.text !== undefined);
  if (n !== 1) {
    throw invalid(['body'], 'give exactly one of journal_id and text', n === 0 ? 'missing' : 'value_error');
  }
  if (b.text !== undefined && !b.text.trim()) throw invalid(['body', 'text'], 'text must not be blank', 'value_error');
}

/** The chosen source as input for the text-block walker: 404 for an unknown or foreign journal. */
export async function readSource(journals: JournalService, p: Principal, b: { journal_id?: string; text?: string }): Promise<SourceInput> {
  if (b.journal_id === undefined) return { text: b.text ?? '' };
  const row = await journals.owned(p, b.journal_id);
  return { doc: (await journals.model(row)).model as PMJSON };
}
