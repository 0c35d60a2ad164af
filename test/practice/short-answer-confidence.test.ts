import { describe, expect, it } from 'vitest';
import { expectVerdict, gradeFrq as grade, type VerdictCase } from './helpers.ts';


/** When a short answer's verdict is sure (short-answer.ts; rules.ts "clear refusal", "acronyms", "rarer sense", ...). */
describe('short answers: high only on checkable evidence', () => {
  it.each<VerdictCase>([
    // A clear refusal: two terms WordNet knows, no shared word, no link between them.
    ['What do we call money lent by a bank that must be paid back with interest?', 'a loan', 'a dividend', false, 'high'],
    ['Which gas do plants take in for photosynthesis?', 'carbon dioxide', 'oxygen', false, 'high'],
    // One of the reference's nouns or adjectives swapped for an unlinked word: another term.
    ['Which kind of electricity builds up on a balloon rubbed on hair?', 'static electricity', 'current electricity', false, 'high'],
    // An antonym said alone is sure; beside a negation or other words it may be turned back.
    ['What happens to the volume of a gas heated at constant pressure?', 'it increases', 'it decreases', false, 'high'],
    ['What happens to the volume of a gas heated at constant pressure?', 'it increases', 'it does not decrease', false, 'low'],
    ['What do we call money lent by a bank that must be paid back with interest?', 'a loan', 'money you borrow from them', false, 'low'],
    // A paraphrase WordNet does not know as one term may be right: low.
    ['What do we call a word that means the opposite of another?', 'an antonym', 'a word with reverse meaning', false, 'low'],
    // An acronym is not inflected: GPS is not the plural of GP.
    ['Which satellite system tells a phone where it is?', 'GPS', 'GP', false, 'high'],
    // Another name through a sense that is not the reference's first: accepted, low.
    ['In which unit is a force measured?', 'the newton', 'N', true, 'low'],
    // A word of another language asked for: its article may be left out.
    ['What is the Spanish word for "house"?', 'la casa', 'casa', true, 'high'],
    // Operations the reference spells in words, written as symbols, in the reference's order.
    ['How is profit worked out?', 'revenue minus costs', 'revenue - costs', true, 'high'],
    ['How is profit worked out?', 'revenue minus costs', 'costs - revenue', false, 'low'],
    // One word written as two.
    ['Which programming language runs in web browsers?', 'JavaScript', 'Java Script', true, 'high'],
    // A number beside the question's own words says nothing else.
    ['What is the boiling point of water at sea level in degrees Celsius?', '100', '100 degrees', true, 'high'],
  ])('%s %s ← %s', (question, reference, answer, accepted, confidence) => {
    const g = grade(question, reference, answer);
    expectVerdict(g, accepted, confidence);
    expect(g.needs_review).toBe(confidence === 'low');
  });

  it("a capital letter beside the term names another thing, even the question's letter: never a sure accept", () => {
    const g = grade('What is the relative minor of C major?', 'A minor', 'C minor');
    expect(g.score === g.max_score && g.confidence === 'high').toBe(false);
  });
});
