/**
 * A reference answer's words inside a longer name of something else: "subthalamic nucleus" for
 * "nucleus", "George Washington Carver" for "George Washington". WordNet knows both names; when no
 * sense of the longer one is a sense of the reference ("cell nucleus" is one of "nucleus"), the
 * answer names another thing and the reference's words in it do not count. A longer term whose
 * other words are the question's own is the same answer said in full: "igneous rock" for
 * "igneous" when asked what type of rock.
 */
import { lookup } from '../lexicon/wordnet.ts';

const LONGEST_TERM = 4;

/**
 * The longer WordNet noun in `answer` (tokens) that contains every word of `reference` and means
 * something else, if any. `questionWord`: a word the question says, which a longer term may add.
 */
export function longerTerm(referenceWords: string[], answer: string[], questionWord: (w: string) => boolean = () => false): string | null {
  if (referenceWords.length === 0 || referenceWords.length >= LONGEST_TERM) return null;
  const refSenses = new Set(lookup(referenceWords.join(' ')));
  for (let n = LONGEST_TERM; n > referenceWords.length; n--) {
    for (let i = 0; i + n <= answer.length; i++) {
      const gram = answer.slice(i, i + n);
      if (!referenceWords.every((w) => gram.includes(w))) continue;
      if (gram.every((w) => referenceWords.includes(w) || questionWord(w))) continue;
      const senses = lookup(gram.join(' '));
      if (senses.length > 0 && !senses.some((s) => refSenses.has(s))) return gram.join(' ');
    }
  }
  return null;
}
