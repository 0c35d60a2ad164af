import { writeFileSync } from 'node:fs';
import { BinaryItem, gradeBinary, gradeRubric, parseItems, RubricItem, type Outcome } from './evaluate.ts';
const sets = process.argv.slice(2);
const all: Record<string, Outcome[]> = {};
for (const f of sets) {
  const out: Outcome[] = [];
  if (f.includes('rubric')) for (const it of parseItems(f, RubricItem)) out.push(await gradeRubric(it));
  else for (const it of parseItems(f, BinaryItem)) out.push(await gradeBinary(f, it));
  all[f] = out;
}
writeFileSync(process.env.OUT ?? '/tmp/g2/dump.json', JSON.stringify(all, null, 1));
