import { gradeAnswer } from './server/practice/grading/index.ts';
import { MATH_GENERATORS } from './server/practice/offline/detect.ts';
import { makeRng } from './server/practice/offline/rng.ts';
const g = MATH_GENERATORS.find((x) => x.id === 'simple-interest')!;
for (const d of ['easy','medium','hard'] as const) for (let s=1;s<=6;s++){ const it = g.make(makeRng(s*101+d.length), d, s); const r = gradeAnswer({problem_type:'frq', problem_statement: it.prompt, user_answer: it.answer, correct_answer: it.answer}); if (r.score<1) console.log(it.prompt, it.answer, r.explanation); }
