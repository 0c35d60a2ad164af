/**
 * Questions from the caller's own journal excerpts: sentences of the form "X is Y" become
 * definition questions (what is X?) or cloze questions (____ is Y), one question per sentence, so
 * a set never asks about the same sentence twice. Each says which journal it comes from.
 */
import type { Item, TopicGenerator } from './item.ts';

export interface Fact {
  term: string;
  copula: string;
  definition: string;
  /** Title of the journal the sentence is from (its excerpt's "# title" line), when known. */
  journal?: string;
}

const DEF = /^(?:(?:an?|the)\s+)?([A-Za-z][A-Za-z0-9'-]*(?:\s+[A-Za-z0-9'-]+){0,4}?)\s+(is|are|means|refers to|is called|was|were)\s+(.{8,240}?)[.!]?$/i;
const STOP = new Set('it this that these those there he she they we you i which what who'.split(' '));

export function extractFacts(excerpts: readonly string[]): Fact[] {
  const facts: Fact[] = [];
  const seen = new Set<string>();
  for (const excerpt of excerpts) {
    const journal = /^# (.+)\n/.exec(excerpt)?.[1]?.trim();
    for (const raw of excerpt.split(/(?<=[.!?])\s+|\n+/)) {
      const sentence = raw.replace(/^[-*#>\s\d.)]+/, '').trim();
      const m = DEF.exec(sentence);
      if (!m) continue;
      const term = m[1].trim();
      if (STOP.has(term.toLowerCase().split(/\s+/)[0])) continue;
      const key = term.toLowerCase();
      // One definition under two terms would give a fill-in-the-blank two right answers.
      const defKey = m[3].toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
      if (seen.has(key) || seen.has(`=${defKey}`)) continue;
      seen.add(key);
      seen.add(`=${defKey}`);
      facts.push({ term, copula: m[2].toLowerCase(), definition: m[3].trim().replace(/[.!]$/, ''), ...(journal ? { journal } : {}) });
    }
  }
  return facts;
}

export function contextGenerator(facts: readonly Fact[]): TopicGenerator {
  return {
    id: 'context',
    title: 'From your journals',
    family: 'context',
    capacity: facts.length,
    make(rng, _difficulty, index): Item {
      const f = facts[index % facts.length];
      const others = rng.shuffle(facts.filter((o) => o !== f));
      const said = `Your notes say: "${f.term} ${f.copula} ${f.definition}."`;
      const source = f.journal ? `your journal "${f.journal}"` : 'your own journals';
      // Every other fact is asked the other way round; a cloze needs another term to choose from.
      if (index % 2 === 1 && others.length >= 1) {
        return {
          prompt: `Fill in the blank (from your notes): "____ ${f.copula} ${f.definition}."`,
          answer: f.term,
          distractors: others.slice(0, 3).map((o) => ({ value: o.term, why: `${o.term} ${o.copula} ${o.definition}` })),
          explanation: said,
          claim: (v) => `${v} ${f.copula} ${f.definition}`,
          scoring: f.term,
          params: { fact: f },
          source,
        };
      }
      return {
        prompt: `According to your notes, what ${f.copula === 'are' || f.copula === 'were' ? f.copula : 'is'} ${f.term}?`,
        answer: f.definition,
        distractors: others.slice(0, 3).map((o) => ({ value: o.definition, why: `that describes ${o.term}` })),
        explanation: said,
        claim: (v) => `${f.term} ${f.copula} ${v}`,
        scoring: f.definition,
        params: { fact: f },
        source,
      };
    },
  };
}
