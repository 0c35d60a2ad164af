// A worker thread of the pool (server/workers/pool.ts) when the server runs from source: plain JavaScript so
// that it starts under any loader; it registers tsx, then loads worker.ts. The modules load
// before the worker reports ready, so loading never counts against a task's time limit.
// (The compiled server has its own dist/server/worker.mjs, built from worker.ts.)
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
