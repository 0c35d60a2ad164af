/**
 * Preloaded into a bench's server child (NODE_OPTIONS=--require, since Node 20 refuses --cpu-prof
 * there): profiles the process from start and writes BENCH_CPU_PROF_DIR/<pid>.cpuprofile when it
 * is told SIGTERM (before the server's own shutdown runs).
 */
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  process.prependOnceListener('SIGTERM', () => {
    session.post('Profiler.stop', (err, res) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
