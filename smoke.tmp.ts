import { SCHOOL_GENERATORS } from './server/practice/offline/school/index.ts';
import { makeRng } from './server/practice/offline/rng.ts';
import { distinctDistractors } from './server/practice/offline/item.ts';
const only = process.argv[2];
for (const g of SCHOOL_GENERATORS) {
  if (only && !g.id.startsWith(only)) continue;
  for (const d of ['easy', 'medium', 'hard'] as const) {
    const t0 = performance.now();
    let errs = 0, few = 0; const seen = new Set<string>(); let ex = '';
    for (let s = 0; s < Number(process.env.SEEDS ?? 50); s++) {
      try {
        const it = g.make(makeRng(s * 31 + 7), d, s);
        seen.add(it.prompt);
        if (distinctDistractors(it.answer, it.distractors).length < 2) few++;
        if (s === 0) ex = `${it.prompt} -> ${it.answer} | ${it.distractors.map((x) => x.value).join(' ; ')}`;
      } catch (e) { errs++; if (errs === 1) console.log('  ERR', g.id, d, (e as Error).message.slice(0, 200)); }
    }
    console.log(`${g.id} ${d} ${((performance.now() - t0) / 50).toFixed(2)}ms distinct=${seen.size} errs=${errs} few=${few} :: ${ex}`);
  }
}
