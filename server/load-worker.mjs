// The sliced cold load's worker (load-worker.ts) when the server runs from source: registers tsx,
// then loads it, as worker.mjs does for the pool's workers.
import { register } from 'tsx/esm/api';

register();
await import('./load-worker.ts');
