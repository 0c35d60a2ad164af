import { gradeAnswer } from './server/practice/grading/index.ts';
import { MATH_GENERATORS } from './server/practice/offline/detect.ts';
import { makeRng } from './server/practice/offline/rng.ts';
const g = MATH_GENERATORS.find((x) => x.id === 'literal-equations')!;
const seen = new Set<string>();
for (const d of ['easy','medium','hard'] as const) for (let s=1;s<=120;s++){ const it = g.make(makeRng(s*101+d.length), d, s); if (seen.has(it.prompt)) continue; seen.add(it.prompt);
 const gr = (u: string) => gradeAnswer({problem_type:'frq', problem_statement: it.prompt, user_answer: u, correct_answer: it.answer}).score;
 if (gr(it.answer) < 1) console.log('ANS', it.prompt, it.answer);
 for (const x of it.distractors) if (gr(x.value) >= 1) console.log('DIS', it.prompt, it.answer, '|', x.value); }
console.log(seen.size);
