/**
 * Rubric grading of text answers. The rubric is `scoring_details`, else the reference answer
 * (each line — one line: each sentence — a concept worth 1). A rubric is read in the layouts
 * teachers write (rubric/parse.ts, rubric/segment.ts, rubric/piece.ts, rubric/markers.ts):
 *
 * - Criteria: one per line; bullets (- * • ·), numbers and letters ("1." "1)" "(1)" "(a)" "a."
 *   "i."); several on one line when each carries its points ("1 point: X. 1 point: Y",
 *   "X (1), Y (2)", "(1) X (2) Y"); ";" lists. A comma list is split only when every item carries
 *   points. Prose without points ("A good answer explains why …") is one criterion worth 1,
 *   however many sentences it has.
 * - Points, before or after the criterion: "2 marks: X", "2 points - X", "2 pts — X", "1 mark for
 *   X", "Award 1 mark for X", "+1 X", "[2] X", "X (2 marks)", "X (2)", "X [2]", "X — 2 marks",
 *   "X: 2 points", "X +1", "2p", "one mark"; units mark(s), point(s), pt(s), pts, p, credit(s).
 *   A criterion without points is worth 1.
 * - Headings ("Award 3 marks for:", "Marking scheme (3 marks):", "Total: 6", "[6 marks]") are
 *   not criteria. When the listed items carry points, their points win over the heading's number
 *   (the explanation notes the difference). When they carry none: as many items as the number,
 *   1 each; more items than the number, any N of them earn 1 each; fewer, the number is split
 *   evenly. Items with points next to items without: the unmarked share what the number leaves.
 * - Level descriptors: "3 marks: X / 2 marks: Y / 1 mark: Z" on one line, or on separate lines
 *   when the points fall and each level's words mostly repeat the one above, or a range is given,
 *   or the heading's number equals the top; labelled "Level 3 (5-6 marks): …", "Band 2: …",
 *   "Full marks: … Partial (1): … No marks: …". The answer earns the highest level whose
 *   descriptor it meets (70% of its words and half of what sets it above the level below; "with
 *   an example" needs an example cue); a range pays its top when every word is there, else its
 *   bottom. max_score is the top level. "Level N" without marks is worth N; "Full marks" without
 *   a number the heading's number; "Partial" half of the top. Judgement words ("detailed",
 *   "clear", "basic") cannot be checked and are ignored. Levels that only count ("both reasons" /
 *   "one reason") are decided by the number of distinct answer items. Also read: "Level 2: … (3-4
 *   marks)", "Excellent (4): …", "Score 2: …", "2-point response: …", pasted table rows
 *   ("Level 2 | 3-4 | …"), and "Indicative content:" beside levels (not scored itself; a level is
 *   also met by as many of its points as the level names, else its rank).
 * - Per item: "1 point for each correct example, up to 3", "1 mark per reason (max 2)", "2 marks
 *   each, up to 6", "1 point each for any of: A, B, C, D (max 3)", "Any two of: A, B, C (1 mark
 *   each)", "names two gases (1 mark each)". Named options count once each; otherwise (or beyond
 *   "e.g." examples) distinct answer items (lines, sentences, parts of a short list) that add words
 *   beyond the descriptor's own; "example of a mammal" also needs WordNet to know the item as a
 *   mammal. max_score is the cap (else any-N × per, else options × per, else the number named,
 *   else the heading's number, else one item).
 * - Also: pasted tables ("| Names X | 1 |"), "Label (2 marks): X", "Max N" under items of equal
 *   points (any of them up to N), remarks ("Note: …") that are not criteria, "1 mark for an
 *   example" (met by an example cue).
 * - Alternatives: "(accept: X, Y)", "(also accept X)", "accept X or Y", "X OR Y", an "OR" line
 *   between two criteria, "X / Y", "e.g. X, Y". Refused: "do not accept X", "reject X", "(not X)",
 *   "NOT X" — an answer that gives only X for that criterion earns nothing for it.
 *
 * Marks are whole: a criterion is met when the answer says at least half of its content words
 * (the question's own words left out; lemma, synonym or spelling match, text.ts), a criterion of
 * two marks or more earns half from 40%. Names and numbers it states must be said; a criterion
 * naming its answer is met by that answer said of its role (rubric/keyed.ts); a negation or an
 * opposite contradicts it; a worked calculation is read with the CAS (rubric/calc.ts). A rubric that reads
 * as no criterion at all is a GradingInputError at ['body','problem','scoring_details'], as is one
 * with more than MAX_WORDINGS wordings (criteria, levels, alternatives, options) or whose distinct
 * words times the answer's exceed MAX_WORD_PAIRS.
 */
import { readPrepared } from './score.ts';
import type { Criterion } from './types.ts';

export { gradeRubric, MAX_WORD_PAIRS, MAX_WORDINGS } from './score.ts';
export type { Concept, Criterion, Level, Levels, PerItem } from './types.ts';

/** The criteria a rubric (or, `fromReference`, a reference answer) reads as; their points add up to max_score. */
export function parseRubric(text: string, fromReference: boolean): Criterion[] {
  // Through the scorer's cache: the grader reads a rubric here first, then grades with it.
  return readPrepared(text, fromReference).criteria;
}
