/**
 * The grader's thresholds, in one place (the rules that use them are listed in rules.ts): what
 * meets a criterion, and what makes a grade sure. Tuned on the main evaluation set and held-out
 * sets A and B only. The CAS's bounds are in math/bounds.ts, the size limits of a grade
 * (MAX_WORD_PAIRS, MAX_WORDINGS) in rubric/score.ts, beside the work they bound.
 */

/** Matching a criterion's words (rubric/match.ts, short-answer.ts). */
export const MATCH = {
  /** Share of a criterion's content words that meets it. */
  met: 0.5,
  /** Share that partly meets it (a criterion of two marks or more earns half), and that a negation must reach to contradict it. */
  partly: 0.4,
  /** Share of a refused wording ("do not accept X") the answer must give to be refused. */
  refused: 0.75,
  /** Senses of a part of speech kept when the question does not tell which is meant (WordNet lists the frequent first). */
  frequentSenses: 4,
} as const;

export const CONFIDENCE = {
  /**
   * A criterion refused with at most this share of its content words said is a sure miss; more
   * (but under the half a criterion needs) is a borderline one, and the grade is `low`.
   */
  sureMissCoverage: 0,
  /**
   * A rubric criterion missed with none of its words is a sure miss only when the answer has at
   * most this many content words (not the question's) that no met criterion used: more may be
   * the missed criterion in the student's own words. Tuned on main, A, B, C.
   */
  unreadWords: 0,
  /** Longest stretch of the answer quoted as a criterion's evidence, in words; longer, the matched words alone. */
  maxQuoteWords: 25,
  /**
   * A short answer refused for saying none of the reference's words is sure when it has at most
   * this many content words (a longer one may be a paraphrase the grader cannot read).
   */
  sureRefusalWords: 3,
  /** A one-letter slip is sure in a word of at least this many letters ("mytosis"); in a shorter one it may be another word. */
  sureSlipLength: 6,
  /** Letters a sure slip may get wrong; a slip of more (allowed in long words) may be another word ("Bundesrat"). Tuned on G. */
  sureSlipEdits: 1,
  /** Hypernym steps within which two terms count as siblings (a sure refusal: one kind is not the other). */
  siblingDepth: 2,
  /** Hypernym steps within which an answer in words of its own names a wider kind of the reference (too general: a sure refusal). Tuned on G. */
  widerDepth: 3,
  /**
   * Hypernym steps within which a refused answer is linked to the reference (one a kind of the
   * other): such a refusal is not sure. Tuned on main, A, B, C.
   */
  linkDepth: 2,
  /**
   * Shortest word read as a question word or a part of one when telling an answer built from the
   * question ("thunder" in "thunderstorms"); shorter words are too often parts of any word. Tuned on E.
   */
  echoLetters: 4,
  /**
   * A mathematical reference met only by a rounding the question did not ask for is sure only with
   * at least this many significant figures ("0.133" for 2/15; "0.13" is `low`). Tuned on G.
   */
  roundingFigures: 3,
  /**
   * Words after a first-person subject read as the student's stance, not as a claim ("I'd say …",
   * "if I remember right", "I'm fairly sure"). Tuned on H.
   */
  stanceWords: 2,
} as const;

/** Reading a rubric's marks (rubric/totals.ts). */
export const TOTALS = {
  /**
   * Share of a list's lines that must carry a mark for the lines without one to be read as notes
   * that earn nothing (`- Use many quadrats` among `- … — 1 mark` lines). Tuned on G.
   */
  markedListShare: 2 / 3,
} as const;
