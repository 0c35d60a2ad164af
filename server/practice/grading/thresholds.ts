/**
 * The grader's thresholds that decide how sure a grade is, in one place (the rules that use them
 * are listed in rules.ts). Tuned on the main evaluation set and held-out sets A and B only.
 */
export const CONFIDENCE = {
  /**
   * A criterion refused with at most this share of its content words said is a sure miss; more
   * (but under the half a criterion needs) is a borderline one, and the grade is `low`.
   */
  sureMissCoverage: 0,
  /** Longest stretch of the answer quoted as a criterion's evidence, in words; longer, the matched words alone. */
  maxQuoteWords: 25,
  /**
   * A short answer refused for saying none of the reference's words is sure when it has at most
   * this many content words (a longer one may be a paraphrase the grader cannot read).
   */
  sureRefusalWords: 3,
  /** A one-letter slip is sure in a word of at least this many letters ("mytosis"); in a shorter one it may be another word. */
  sureSlipLength: 6,
  /** Hypernym steps within which two terms count as siblings (a sure refusal: one kind is not the other). */
  siblingDepth: 2,
} as const;
