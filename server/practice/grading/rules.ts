/**
 * The index of the grader's named rules: one line each saying what it does, the file that holds
 * it and the tests that cover it. Thresholds that decide confidence live in thresholds.ts, the
 * CAS's bounds in math/bounds.ts; the WordNet helpers shared by every rule are one module,
 * senses.ts (over the database reader lexicon/wordnet.ts). A rule is added here with its file and
 * its tests (test/practice/rules-index.test.ts checks that both exist).
 *
 * `tuned` says which evaluation sets a rule was shaped on: `main` (grading-eval/*.json), `A`, `B`,
 * `C`, `D`, `E` (held-out sets seen before the rule; sets C, D and E were each measured unseen, then
 * studied). A rule
 * tuned on a set has to be shown on the next unseen one (issue 28).
 */
export interface Rule {
  name: string;
  what: string;
  file: string;
  tests: string[];
  tuned: ('main' | 'A' | 'B' | 'C' | 'D' | 'E')[];
}

const G = 'server/practice/grading/';
const T = 'test/practice/';

export const RULES: readonly Rule[] = [
  // ---- dispatch and confidence ----
  { name: 'dispatch', what: 'choice exactly, a mathematical reference by the CAS, a rubric by criteria, a short reference as a term', file: `${G}index.ts`, tests: [`${T}grading.test.ts`], tuned: ['main'] },
  { name: 'confidence', what: 'high only when every deciding rule is checkable; needs_review when low', file: `${G}index.ts`, tests: [`${T}confidence.test.ts`], tuned: ['main', 'A', 'B'] },
  { name: 'choice', what: 'mcq: the right key; select_all: a share per right key, a wrong key cancels one', file: `${G}choice.ts`, tests: [`${T}grading.test.ts`], tuned: ['main'] },
  { name: 'batch groups', what: "a class's answers grouped by CAS value, normalised text or criteria met with the same evidence; reviews score a group", file: `${G}batch.ts`, tests: ['test/practice-api/grade-batch.test.ts'], tuned: [] },
  // ---- mathematics ----
  { name: 'CAS bounds', what: 'no symbolic work past MAX_SYMBOLIC_TERMS / MAX_POWER_OF_SUM / MAX_NODES / MAX_POWER; a limit met asks for review', file: `${G}math/bounds.ts`, tests: ['test/security/hostile-grading-cas.test.ts'], tuned: [] },
  { name: 'sampled equality', what: 'expressions equal at 20 finite samples; equations up to a constant factor and denominators', file: `${G}math/kas.ts`, tests: ['test/security/hostile-grading-cas.test.ts', `${T}math-classes.test.ts`], tuned: ['main', 'A'] },
  { name: 'exact numbers', what: 'numbers compared as BigInt rationals, huge ones by sign and size, never two overflowed floats', file: `${G}math/exact.ts`, tests: [`${T}number-comparison.test.ts`], tuned: [] },
  { name: 'readings', what: 'a value, equation, solution list, interval or inequality (half-open, x ∈ …), matrix', file: `${G}math/read.ts`, tests: [`${T}math-classes.test.ts`, `${T}math-forms.test.ts`], tuned: ['main', 'A'] },
  { name: 'notation', what: 'LaTeX, Unicode, roots (√, sqrt, ^(1/2)), scientific notation (×10^, x10^, e, E, superscripts)', file: `${G}math/normalize.ts`, tests: [`${T}math-forms.test.ts`], tuned: ['main', 'A'] },
  { name: 'demanded forms', what: 'simplest form, decimal places, significant figures, fraction/decimal/percent, interval or inequality notation, factored/expanded', file: `${G}math/forms.ts`, tests: [`${T}math-classes.test.ts`, `${T}math-forms.test.ts`], tuned: ['main', 'A'] },
  { name: 'more notations', what: '"a and b/c" and Unicode vulgar fractions as mixed numbers, "a in b" and "a to b" alone, units with negative powers (m s^-1), reversed interval brackets (]a, b]), a 0b prefix, working or a rounding note in brackets after the value, a probability as a rounded percentage', file: `${G}math/normalize.ts`, tests: [`${T}math-notations.test.ts`], tuned: ['C'] },
  { name: 'root and standard forms', what: '"in the form a√b" demands an exact form; a root written as a power of 0.5 is a root; standard form needs 1 ≤ a < 10', file: `${G}math/forms.ts`, tests: [`${T}math-notations.test.ts`], tuned: ['C'] },
  { name: 'reordered list', what: 'values with no variable named, right as a set but listed in another order than the reference\'s, are `low` (the order may be what is asked: shares of a ratio)', file: `${G}math/index.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'integer factors', what: 'a reference written as a product of whole numbers (`2³ × 3`): the same factors are sure; a factor not prime when primes are asked, or a repeated factor when index form is asked, is refused; other factors of the value are `low`; standard form is not such a product', file: `${G}math/index.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'unasked rounding', what: 'a reference with π, a root or a logarithm met only by a rounding the question did not ask for is `low`; "leave/keep π (surds, roots)" demands the exact form', file: `${G}math/index.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'precision as written', what: 'places and figures counted in the reference\'s own unit, not the base unit (282.7 cm³ to 1 d.p.); a plain reference without the precision asked (the rounding is of the inputs: "estimate by rounding each number to 1 s.f.") matched as written, `low`', file: `${G}math/index.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'point separators', what: 'points as thousands separators: two or more groups of three digits (`1.000.000`), or groups before a decimal comma (`2.234,5`); one point stays a decimal point', file: `${G}math/normalize.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'ordinary number and single logarithm', what: '"as an ordinary number" refuses any written power of ten (e, E, × 10^); "as a single logarithm" refuses the value', file: `${G}math/forms.ts`, tests: [`${T}math-forms-more.test.ts`], tuned: ['main', 'A', 'C', 'D'] },
  { name: 'more vector and root notations', what: '± inside a bracket gives both values ("(6 ± √20)/2"); a chain through a logarithm ends at its value; i, j, k unit vectors as the components of a listed reference', file: `${G}math/index.ts`, tests: [`${T}math-forms-more.test.ts`], tuned: ['main', 'A', 'C', 'D'] },
  { name: 'times of day', what: 'a time-of-day reference compared in minutes after midnight (12- and 24-hour, "in the evening"); a time without its half of the day is low', file: `${G}clock.ts`, tests: [`${T}math-notations.test.ts`], tuned: ['C'] },
  { name: 'complete factorisation', what: 'no bracket keeps a common factor or factors further', file: `${G}math/factor.ts`, tests: [`${T}math-classes.test.ts`], tuned: ['main'] },
  { name: 'units', what: 'a unit after a number, its dimension and conversion', file: `${G}math/units.ts`, tests: [`${T}math-classes.test.ts`], tuned: ['main', 'A'] },
  { name: 'working', what: 'the solutions a chain of working concludes', file: `${G}math/working.ts`, tests: [`${T}math-classes.test.ts`], tuned: ['main', 'A'] },
  { name: 'matrices', what: 'nested lists compared entry by entry', file: `${G}math/matrix.ts`, tests: [`${T}math-classes.test.ts`], tuned: ['A'] },
  { name: 'added claim', what: 'a claim added to a right number that the question refutes', file: `${G}added-claim.ts`, tests: [`${T}grading-classes.test.ts`], tuned: ['main'] },
  { name: 'number words', what: 'numbers written in words as numerals', file: `${G}number-words.ts`, tests: [`${T}short-answer-classes.test.ts`], tuned: ['main'] },
  // ---- short answers ----
  { name: 'term match', what: 'exact, alias, formula, inflection, synonym (low), related form (low), slip (low in short words)', file: `${G}short-answer.ts`, tests: [`${T}short-answer-classes.test.ts`, `${T}confidence.test.ts`], tuned: ['main', 'A', 'B'] },
  { name: 'unchecked words', what: 'words beyond the matched term make an accepted answer low', file: `${G}short-answer.ts`, tests: [`${T}confidence.test.ts`], tuned: ['A', 'B'] },
  { name: 'sure refusal', what: 'a refusal is high only for two names, two numbers or WordNet siblings', file: `${G}short-answer.ts`, tests: [`${T}confidence.test.ts`], tuned: ['main', 'A', 'B'] },
  { name: 'clear refusal', what: 'a refusal is also high when both terms are WordNet terms sharing no word and no link within CONFIDENCE.linkDepth (synonym, derivation, similar, hypernym/hyponym)', file: `${G}short-answer.ts`, tests: [`${T}short-answer-confidence.test.ts`], tuned: ['main', 'A', 'B', 'C'] },
  { name: 'swapped word', what: "another term made by swapping one of the reference's nouns or adjectives for an unlinked word is a sure refusal", file: `${G}short-answer.ts`, tests: [`${T}short-answer-confidence.test.ts`], tuned: ['main', 'A', 'B', 'C'] },
  { name: 'sure antonym', what: 'an antonym said alone, not denied, is a sure refusal', file: `${G}short-answer.ts`, tests: [`${T}short-answer-confidence.test.ts`], tuned: ['main', 'A', 'B', 'C'] },
  { name: 'acronyms', what: 'an acronym is read as written, never as an inflection (HTTPS is not the plural of HTTP); an expansion of one is no sure refusal', file: `${G}short-answer.ts`, tests: [`${T}short-answer-confidence.test.ts`], tuned: ['main', 'A', 'B', 'C'] },
  { name: 'rarer sense', what: "another name through a sense that is not the reference's first is low; the strongest match decides", file: `${G}short-answer.ts`, tests: [`${T}short-answer-confidence.test.ts`], tuned: ['main', 'A', 'B', 'C'] },
  { name: 'letter names', what: 'a capital letter beside the term is an unchecked claim, even the question\'s letter', file: `${G}short-answer.ts`, tests: [`${T}short-answer-confidence.test.ts`], tuned: ['B', 'C'] },
  { name: 'term spellings', what: "a foreign word's article may be left out; one word written as two; operations spelled in words read from their symbols, in order; all alternatives tried before a longer-name refusal", file: `${G}short-answer.ts`, tests: [`${T}short-answer-confidence.test.ts`], tuned: ['C'] },
  { name: 'reference lists', what: 'a reference written "A, B or C" is three alternatives; another of them beside the one matched is no rival (a list of right ones is credited)', file: `${G}short-answer.ts`, tests: [`${T}short-answer-names.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'name spellings', what: "an apostrophe left out is the same word (Quran, Qur'an; WordNet's form looked up without it); two names at most two letters apart, one unknown to WordNet (a transliteration), are no sure refusal", file: `${G}short-answer.ts`, tests: [`${T}short-answer-names.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'gloss words', what: "words set apart from the matched term (bracket, comma, dash) that WordNet's definition of the term or its hypernym says are no unchecked claim", file: `${G}short-answer.ts`, tests: [`${T}short-answer-names.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'definition said', what: "WordNet's short definition of the reference (at most 4 content words) said instead of its name, two thirds of it and nothing beyond it: accepted, low", file: `${G}short-answer.ts`, tests: [`${T}short-answer-names.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'denied aside', what: 'a word denied right after a negation cue ("arteries, not veins"), with no word of the accepted term between, rules another answer out: no unchecked claim', file: `${G}short-answer.ts`, tests: [`${T}short-answer-names.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'British and American spelling', what: 'two words that spell the same in American spelling (-ise/-ize, -isation, -our, -tre, ae/oe) are one word, exact', file: `${G}short-answer.ts`, tests: [`${T}short-answer-names.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'initials', what: 'an answer in capitals that is the initials of every word of the reference (with or without of/and/for) is the reference', file: `${G}short-answer.ts`, tests: [`${T}short-answer-names.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'numbered terms', what: 'a reference with a number (`Type I error`, `third law`; digits, words, ordinals, roman numerals): another number in the answer is a sure refusal (a hedge between two too), none of its number is `low` unless the question says it', file: `${G}short-answer.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'modifier left out', what: 'a modifier of the reference that the question also says (`cold` in `cold front`) may be left out, but the answer is then `low` (it may name a wider or neighbouring thing)', file: `${G}short-answer.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'question echoed', what: 'another name for the reference made only of the question\'s words or parts of them (`thunder cloud` asked about thunderstorms and clouds) is `low`', file: `${G}short-answer.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'filler word after a number', what: 'a filler word after a number in prose (`42 I believe`) is no unit: the pronoun I is not the imaginary unit', file: `${G}math/index.ts`, tests: [`${T}math-notations.test.ts`], tuned: ['main'] },
  { name: 'number beside question words', what: "a number read from prose is high when its other words are the question's", file: `${G}math/index.ts`, tests: [`${T}short-answer-confidence.test.ts`], tuned: ['C'] },
  { name: 'longer name', what: "the reference's words inside a longer name of something else", file: `${G}longer-term.ts`, tests: [`${T}short-answer-classes.test.ts`], tuned: ['main'] },
  { name: 'statements', what: 'assertions, denials, self-corrections, hedges', file: `${G}statements.ts`, tests: [`${T}short-answer-classes.test.ts`], tuned: ['main', 'A'] },
  { name: 'superlative', what: "an added superlative checked against WordNet's glosses", file: `${G}superlative.ts`, tests: [`${T}short-answer-classes.test.ts`], tuned: ['main'] },
  { name: 'formula names', what: 'chemical formulas read as their names', file: `${G}chem.ts`, tests: [`${T}short-answer-classes.test.ts`], tuned: ['main'] },
  { name: 'accents', what: 'accents and symbols never split a word', file: `${G}accents.ts`, tests: [`${T}short-answer-classes.test.ts`], tuned: ['main'] },
  // ---- rubrics ----
  { name: 'rubric layouts', what: 'lines, markers, headings, levels, per item, tables, alternatives, refusals', file: `${G}rubric/parse.ts`, tests: [`${T}rubric-formats.test.ts`], tuned: ['main', 'A', 'B'] },
  { name: 'rubric totals', what: "max_score is the stated total (table Total rows, /N, headings); scaled with review when points disagree; review when none is written", file: `${G}rubric/score.ts`, tests: [`${T}confidence.test.ts`, `${T}rubric-formats.test.ts`], tuned: ['main'] },
  { name: 'rubric total layouts', what: 'analytic grids (`| X | 2 marks | 1 mark | 0 marks |`), level|marks tables, `criterion:`/`points:` records, `Name: N marks — X` strands, `Marks: 1 + 1 + 2`, `(1 mark per ✓)`, prose `Up to N marks.` rewritten into read layouts', file: `${G}rubric/layouts.ts`, tests: [`${T}rubric-layouts.test.ts`], tuned: ['main', 'A', 'B', 'C'] },
  { name: 'more total layouts', what: 'markdown headings as titles (`### Criteria (6 marks)`), `Points: 2` on the line after a criterion, marks after `= `, dot leaders or space columns with a `TOTAL` line, a symbol key (`★ = 1 mark`), `N marks available` and `(Maximum N: …)` as caps, `(1) (x2)`, `— 1 mark each` after `(i) … (ii) …`, letter descriptors `A (3 marks):` as levels', file: `${G}rubric/layouts.ts`, tests: [`${T}rubric-totals-more.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'written total wins', what: 'a total written anywhere is max_score: `total`/`insgesamt`/`totale`/`marks available`/`out of` before a number, `N marks in all`/`available`/`in total`, `start at N marks`, one lone `Marks: N` line, a heading `… (N puntos):`, marks listed on one line (`Mark allocation: 1, 1, 2`); a cap (`max 3`) is no total', file: `${G}rubric/totals.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'criterion marks anywhere', what: 'marks in HTML/XML tags (`<li>… (1)</li>`, `marks="1"`, `<total>`), braces (`{2}`), sums (`(1+1)`), a comma column with a `total,N` row; a parent whose mark is the sum of its indented parts counted once; a label with a range of marks (`L3 (5–6):`) a level', file: `${G}rubric/totals.ts`, tests: [`${T}grading-e-rules.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D', 'E'] },
  { name: 'labels and arrows', what: '`→ N mark` arrows; a label before its marks (`Position (1 mark): X`, `AO1 (2): X`) is no word to say, unless quality words with falling marks (levels); `½` read as a mark', file: `${G}rubric/layouts.ts`, tests: [`${T}rubric-totals-more.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'score labels', what: '`2/3 —` descriptors and a bare `0:` line read as levels', file: `${G}rubric/markers.ts`, tests: [`${T}rubric-layouts.test.ts`], tuned: ['main', 'A', 'B', 'C'] },
  { name: 'per-item headings', what: '`Any 2 × 1 mark` is per item; a cap after a `;` list caps its options; `1 mark for each X, max 2: e.g. A; B` is one per-item criterion; `For each of two X:` multiplies its points', file: `${G}rubric/parse.ts`, tests: [`${T}rubric-layouts.test.ts`], tuned: ['main', 'A', 'B', 'C'] },
  { name: 'segments', what: 'list markers, inline enumerations, table rows', file: `${G}rubric/segment.ts`, tests: [`${T}rubric-formats.test.ts`], tuned: ['main', 'A', 'B'] },
  { name: 'markers', what: 'points before or after a criterion, level labels', file: `${G}rubric/markers.ts`, tests: [`${T}rubric-formats.test.ts`], tuned: ['main', 'A', 'B'] },
  { name: 'concept', what: 'a criterion met by half of its content words (two marks: half from 40%); evidence quoted', file: `${G}rubric/concept.ts`, tests: [`${T}grading.test.ts`, `${T}confidence.test.ts`], tuned: ['main', 'A', 'B'] },
  { name: 'unread words', what: 'a criterion missed with none of its words is a sure miss only when no content word of the answer is left unread by the met criteria (CONFIDENCE.unreadWords)', file: `${G}rubric/score.ts`, tests: [`${T}rubric-layouts.test.ts`], tuned: ['main', 'A', 'B', 'C'] },
  { name: 'derived forms', what: 'a derived form sharing its stem is the word ("rotate" for "rotation"); another word of the derived sense is a WordNet link (low)', file: `${G}rubric/match.ts`, tests: [`${T}rubric-layouts.test.ts`], tuned: ['C'] },
  { name: 'word match', what: 'lemma, synonym, spelling; negation contradicts', file: `${G}rubric/match.ts`, tests: [`${T}grading-classes.test.ts`], tuned: ['main', 'A'] },
  { name: 'labelled parts', what: 'criteria labelled (i)/(ii) or (a)/(b), one label each, judged on the answer\'s part of the same label when the answer uses the labels', file: `${G}rubric/score.ts`, tests: [`${T}rubric-opposites.test.ts`], tuned: ['D'] },
  { name: 'compound words', what: 'a hyphenated criterion word met by its parts side by side in one clause ("runs off" for "run-off") or written as one word', file: `${G}rubric/match.ts`, tests: [`${T}rubric-opposites.test.ts`], tuned: ['D'] },
  { name: 'keyed criteria', what: 'a criterion naming its answer met by that answer in its role', file: `${G}rubric/keyed.ts`, tests: [`${T}grading-classes.test.ts`], tuned: ['main', 'A'] },
  { name: 'levels', what: 'the highest level whose descriptor the answer meets', file: `${G}rubric/levels.ts`, tests: [`${T}rubric-formats.test.ts`], tuned: ['main', 'A', 'B'] },
  { name: 'per item', what: 'distinct items counted, capped', file: `${G}rubric/count.ts`, tests: [`${T}rubric-formats.test.ts`], tuned: ['main', 'A', 'B'] },
  { name: 'category', what: 'each counted item a kind of the named category (WordNet)', file: `${G}rubric/category.ts`, tests: [`${T}grading-classes.test.ts`], tuned: ['main'] },
  { name: 'contrary', what: "a qualified category refuses its qualifier's antonym", file: `${G}rubric/contrary.ts`, tests: [`${T}grading-classes.test.ts`], tuned: ['main'] },
  { name: 'opposites said of something else', what: "an opposite does not contradict a criterion whose word the answer also says in other words (\"starts\" … \"at the end\" for \"begins\"), nor when the answer denies it", file: `${G}rubric/concept.ts`, tests: [`${T}rubric-opposites.test.ts`], tuned: ['main', 'A', 'B', 'C', 'D'] },
  { name: 'swap', what: 'right words in the wrong places (roles swapped)', file: `${G}rubric/swap.ts`, tests: [`${T}grading-classes.test.ts`], tuned: ['main', 'A'] },
  { name: 'calculation', what: 'a worked calculation read with the CAS', file: `${G}rubric/calc.ts`, tests: [`${T}grading-classes.test.ts`], tuned: ['main'] },
  { name: 'number example', what: "a number example's property checked by arithmetic", file: `${G}rubric/number-example.ts`, tests: [`${T}grading-classes.test.ts`], tuned: ['main'] },
  // ---- shared ----
  { name: 'WordNet helpers', what: 'senses, close senses, antonyms, hypernyms, derivations: the one WordNet module of the rules', file: `${G}senses.ts`, tests: [`${T}grading-classes.test.ts`], tuned: ['main'] },
  { name: 'thresholds', what: 'the confidence thresholds in one place', file: `${G}thresholds.ts`, tests: [`${T}confidence.test.ts`], tuned: ['main', 'A', 'B'] },
];
