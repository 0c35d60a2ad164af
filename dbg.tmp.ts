import { matchSubTopics } from './server/practice/offline/school/match.ts';
import { CATALOGUE } from './server/practice/offline/school/catalogue.ts';
for (const t of CATALOGUE) for (const e of t.examples) { const m = matchSubTopics(e); if (m.ids.join() !== t.id || m.leftover.length) console.log('EX', t.id, JSON.stringify(e), m); }
for (const d of process.argv.slice(2)) console.log(d, JSON.stringify(matchSubTopics(d)));
