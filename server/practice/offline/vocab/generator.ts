/** Definition-to-term questions over a WordNet vocabulary topic. */
import type { Item, TopicGenerator } from '../item.ts';
import type { Term, VocabTopic } from './topics.ts';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Hides the term (and its synonyms) if the definition happens to name it. */
export function mask(definition: string, t: Term): string {
  let out = definition;
  for (const w of [t.term, ...t.synonyms]) out = out.replace(new RegExp(`\\b${escapeRe(w)}\\b`, 'gi'), '____');
  return out;
}

export function vocabGenerator(topic: VocabTopic, order: number[]): TopicGenerator {
  return {
    id: `vocabulary:${topic.root}`,
    title: `Vocabulary: ${topic.relation === 'parts' ? 'parts of ' : ''}${topic.root}${topic.narrowedBy.length ? ` (${topic.narrowedBy.join(' ')})` : ''}`,
    family: 'vocabulary',
    capacity: order.length,
    make(rng, _difficulty, index): Item {
      const t = topic.terms[order[index % order.length]];
      const def = mask(t.definition, t);
      const others = rng.shuffle(topic.terms.filter((o) => o.term.toLowerCase() !== t.term.toLowerCase() && !t.synonyms.includes(o.term)));
      const also = t.synonyms.length ? ` (also accepted: ${t.synonyms.join(', ')})` : '';
      return {
        prompt: `Which term (a ${t.relation} of ${topic.root}) is defined as: "${def}"?`,
        answer: t.term,
        distractors: others.slice(0, 4).map((o) => ({ value: o.term, why: `is another ${t.relation} of ${topic.root}: ${o.definition}` })),
        explanation: `${t.term}${t.synonyms.length ? ` (${t.synonyms.join(', ')})` : ''}: ${t.definition}.`,
        claim: (v) => `${v}: ${def}`,
        scoring: `${t.term}${also}`,
        params: { term: t.term, definition: t.definition },
        source: `WordNet 3.1, the gloss of "${t.term}"`,
      };
    },
  };
}
