import { describe, it } from 'vitest';
import { expectVerdict, gradeFrq as grade, type VerdictCase } from './helpers.ts';


/** Short-answer rules tuned on set D (short-answer.ts; rules.ts "reference lists", "name spellings", "initials"); cases of their own. */
describe('short answers: listed alternatives, spellings of a name, initials', () => {
  it.each<VerdictCase>([
    // "A, B or C": each is an answer; a list of right ones is credited, a wrong kind is refused.
    ['Name one of the noble gases used in lighting.', 'neon, argon or krypton', 'argon', true, 'high'],
    ['Name one of the noble gases used in lighting.', 'neon, argon or krypton', 'krypton', true, 'high'],
    ['Name one of the noble gases used in lighting.', 'neon, argon or krypton', 'neon, argon', true, 'high'],
    ['Name one of the noble gases used in lighting.', 'neon, argon or krypton', 'nitrogen', false, 'high'],
    // A comma without "or" is not a list of alternatives.
    ['Which city is the capital of France?', 'Paris, France', 'France', false, 'high'],
    // An apostrophe left out is the same name; a name WordNet knows only without it is read so.
    ['Which scale measures the hardness of minerals?', "Mohs' scale", 'Mohs scale', true, 'high'],
    ["Which play begins with the witches' meeting?", "Macbeth", 'Macbeth', true, 'high'],
    // Two spellings of one name (a transliteration WordNet does not know) are no sure refusal.
    ['Which Greek hero blinded the Cyclops?', 'Odysseus', 'Odyssée', false, 'low'],
    // Further apart, or both known to WordNet: a sure refusal.
    ['Which Greek hero blinded the Cyclops?', 'Odysseus', 'Perseus', false, 'high'],
    // Two terms WordNet knows apart stay a sure refusal, however close their spelling.
    ['Which type of cell division makes four different cells?', 'meiosis', 'mitosis', false, 'high'],
    // Initials of every word of the reference.
    ['Which organisation sets the rules of international trade?', 'the World Trade Organization', 'WTO', true, 'high'],
    ['Which UK body sets interest rates?', 'the Monetary Policy Committee', 'MPC', true, 'high'],
    ['Which organisation sets the rules of international trade?', 'the World Trade Organization', 'WHO', false, 'high'],
  ])('%s %s ← %s', (question, reference, answer, accepted, confidence) => {
    const g = grade(question, reference, answer);
    expectVerdict(g, accepted, confidence);
  });
});

/** Words set apart from the term that WordNet's definition of it says are no unchecked claim (short-answer.ts, "gloss words"). */
describe('short answers: what the term is, said beside it', () => {
  it.each<VerdictCase>([
    ['Which planet is known as the Red Planet?', 'Mars', 'Mars, a small reddish planet', true, 'high'],
    ['Which planet is known as the Red Planet?', 'Mars', 'Mars (a reddish planet)', true, 'high'],
    // A claim WordNet's definition does not make stays unchecked.
    ['Which planet is known as the Red Planet?', 'Mars', 'Mars, a planet with rings', true, 'low'],
    // Not set apart: the words may make another term.
    ['Which planet is known as the Red Planet?', 'Mars', 'Mars reddish planet', true, 'low'],
  ])('%s %s ← %s', (question, reference, answer, accepted, confidence) => {
    const g = grade(question, reference, answer);
    expectVerdict(g, accepted, confidence);
  });
});

/** WordNet's short definition of the reference said instead of its name (short-answer.ts, "definition said"): accepted, low. */
describe('short answers: the definition said instead of the name', () => {
  it.each<VerdictCase>([
    ['Which field of study deals with behaviour and the mind?', 'psychology', 'the science of mental life', true, 'low'],
    ['Which part of linguistics is this?', 'etymology', 'the study of the sources and development of words', true, 'low'],
    // One word of the definition, or words beyond it, are not the definition.
    ['Which field of study deals with behaviour and the mind?', 'psychology', 'mental health', false, 'high'],
    ['Which field of study deals with behaviour and the mind?', 'psychology', 'the science of mental illness in life', false, 'low'],
  ])('%s %s ← %s', (question, reference, answer, accepted, confidence) => {
    const g = grade(question, reference, answer);
    expectVerdict(g, accepted, confidence);
  });
});

/** Another answer ruled out beside the right one (short-answer.ts, "denied aside"). */
describe('short answers: another answer denied beside the right one', () => {
  it.each<VerdictCase>([
    ['Which gas do plants take in for photosynthesis?', 'carbon dioxide', 'carbon dioxide, not oxygen', true, 'high'],
    ['Which gas do plants take in for photosynthesis?', 'carbon dioxide', 'not oxygen but carbon dioxide', true, 'high'],
    // Words beyond the denied one are claims again.
    ['Which gas do plants take in for photosynthesis?', 'carbon dioxide', 'carbon dioxide, not oxygen which they release at night only', true, 'low'],
    ['Which gas do plants take in for photosynthesis?', 'carbon dioxide', 'oxygen, not carbon dioxide', false, 'high'],
  ])('%s %s ← %s', (question, reference, answer, accepted, confidence) => {
    const g = grade(question, reference, answer);
    expectVerdict(g, accepted, confidence);
  });
});

/** British and American spellings of one word (short-answer.ts, "British and American spelling"): the same word, high. */
describe('short answers: British and American spellings', () => {
  it.each<VerdictCase>([
    ['Which body sets safety standards for trade?', 'the International Standards Organization', 'International Standards Organisation', true, 'high'],
    ['What do we call the part of a circle at its middle?', 'the center', 'the centre', true, 'high'],
    ['Which condition means too few red blood cells?', 'anaemia', 'anemia', true, 'high'],
    ['Which word means the way someone acts?', 'behavior', 'behaviour', true, 'high'],
    // Another word is not a spelling of it.
    ['Which word means the way someone acts?', 'behavior', 'harbour', false, 'high'],
  ])('%s %s ← %s', (question, reference, answer, accepted, confidence) => {
    const g = grade(question, reference, answer);
    expectVerdict(g, accepted, confidence);
  });
});
