import { gradeAnswer } from './server/practice/grading/index.ts';
import { MATH_GENERATORS } from './server/practice/offline/detect.ts';
import { makeRng } from './server/practice/offline/rng.ts';
import { distinctDistractors } from './server/practice/offline/item.ts';
const N = Number(process.env.N ?? 6);
for (const g of MATH_GENERATORS) for (const d of ['easy','medium','hard'] as const) for (let s=1;s<=N;s++){ const it = g.make(makeRng(s*101+d.length), d, s);
 const gr = (u: string) => gradeAnswer({problem_type:'frq', problem_statement: it.prompt, user_answer: u, correct_answer: it.answer}).score;
 const ds = distinctDistractors(it.answer, it.distractors);
 if (ds.length < 2) console.log('FEW', g.id, d, it.prompt, it.answer);
 if (gr(it.answer) < 1) console.log('ANS', g.id, d, it.prompt, '=>', it.answer);
 for (const x of ds) if (gr(x.value) >= 1) console.log('DIS', g.id, d, it.prompt, it.answer, '|', x.value); }
