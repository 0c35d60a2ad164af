/** Issue 29: the second half of the sub-topic catalogue, 50 seeds per level (school-check.ts). */
import { describe, it } from 'vitest';
import { CATALOGUE } from '../../server/practice/offline/school/catalogue.ts';
import { checkSubTopic } from './school-check.ts';

const HALF = CATALOGUE.slice(Math.ceil(CATALOGUE.length / 2)).map((t) => t.id);

describe('school sub-topics (second half): made of the sub-topic, answers verified by the CAS, wrong choices wrong, no repeats', () => {
  it.each(HALF)('%s', (id) => checkSubTopic(id), 60_000);
});
