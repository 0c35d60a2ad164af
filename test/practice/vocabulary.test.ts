import { describe, expect, it } from 'vitest';
import { planSet } from '../../server/practice/offline/index.ts';
import { findVocabTopics } from '../../server/practice/offline/vocab/topics.ts';
import { lookup, synset, synonyms } from '../../server/practice/lexicon/wordnet.ts';
import { under } from './helpers.ts';

describe('WordNet reader', () => {
  it('finds lemmas by binary search and reads synsets at their offsets', () => {
    const [off] = lookup('mitochondrion');
    const s = synset(off);
    expect(s.words).toContain('mitochondrion');
    expect(s.definition).toMatch(/organelle/);
    expect(lookup('no_such_lemma_xyz')).toEqual([]);
    expect(synonyms('produce')).toContain('make');
  });
});

describe('vocabulary sets', () => {
  it.each([
    ['vocabulary: cell organelles', 'organelle'],
    ['planets', 'planet'],
    ['bones of the human body', 'bone'],
    ['chemical elements', 'chemical element'],
  ])('%s: every question is a definition of a term under "%s" in WordNet', (description, root) => {
    const topic = findVocabTopics(description, description.includes('vocabulary'));
    expect(topic.ok).toBe(true);
    const plan = planSet({ description, count: 12, problemType: 'mixed', difficulty: 'medium', seed: 3 });
    if (!plan.ok) throw new Error(plan.message);
    for (let i = 0; i < plan.total; i++) {
      const p = plan.next(i);
      if (p.problem_type === 'select_all') {
        // true statements pair a term with its own gloss
        for (const k of p.correct_answer.split(',')) {
          const [term, ...rest] = p.answer_choices[k].split(': ');
          expect(lookup(term).some((o) => synset(o).definition.replace(/\s+/g, ' ') === rest.join(': ').replace(/____/g, term) || rest.join(': ').includes('____')), p.answer_choices[k]).toBe(true);
        }
        continue;
      }
      const term = p.problem_type === 'mcq' ? p.answer_choices[p.correct_answer] : p.correct_answer;
      expect(under(term, root), `${term} under ${root}`).toBe(true);
      const quoted = /"(.*)"\?$/.exec(p.problem_statement)![1];
      const glosses = lookup(term).map((o) => synset(o).definition);
      expect(glosses.some((g) => g === quoted || quoted.includes('____')), `${term}: ${quoted}`).toBe(true);
      if (p.problem_type === 'mcq') for (const v of Object.values(p.answer_choices)) expect(under(v, root), v).toBe(true);
    }
  });
});

describe('nothing invented: a topic WordNet knows only by another sense is refused', () => {
  // The first three are the reports (factories for "plants", disease causes, disputes);
  // the others are of the same kind: an abstract head ("causes", "themes", "characters",
  // "effects") about something WordNet's sense of that word does not know.
  it.each([
    'Photosynthesis in plants for grade 7',
    'World War II causes',
    'Hamlet themes',
    'Causes of the French Revolution',
    'Romeo and Juliet characters',
    'effects of climate change',
    // WordNet names only three muscles "of the arm" in their glosses; muscles in general are not asked for.
    'muscles of the arm',
  ])('%s: no set, and a message naming what is covered and how to get the rest', (description) => {
    const plan = planSet({ description, count: 5, problemType: 'mixed', difficulty: 'medium', seed: 1 });
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.message).toContain('The offline engine covers mathematics');
    expect(plan.message).toContain('search_for_problems');
    expect(plan.message).toContain('LLM_BASE_URL');
  });

  it.each([
    ['bones of the human body', 'bone'],
    ['planets of the solar system', 'planet'],
    ['parts of a flower', 'flower'],
    ['types of rocks', 'rock'],
  ])('%s: a category of concrete things keeps its set (root "%s")', (description, root) => {
    // As planSet asks: "parts of" and "types of" are explicit requests for a vocabulary set.
    const topic = findVocabTopics(description, /\b(parts|types) of\b/.test(description));
    expect(topic.ok && topic.topics.map((t) => t.root)).toEqual([root]);
  });
});
