import { MATH_GENERATORS } from './server/practice/offline/detect.ts';
import { makeRng } from './server/practice/offline/rng.ts';
import { sameValue } from './server/practice/offline/school/kit.ts';
import nerdamer from './server/practice/offline/nerdamer.ts';
for (const g of MATH_GENERATORS) {
  for (const d of ['easy','medium','hard'] as const) for (let s = 1; s < 4; s++) { try { g.make(makeRng(s), d, s); } catch (e) { console.log('ERR', g.id, (e as Error).message.slice(0,100)); } }
  const ok = sameValue('26π cm', '2*pi*13');
  if (!ok) { console.log('BROKEN after', g.id, nerdamer('(26*pi)-(2*pi*13)').toString()); break; }
}
console.log('done');
