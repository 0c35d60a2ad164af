/**
 * The admin command line's process (cli.ts): built to dist/server/admin.cjs by
 * scripts/build-server.mjs, run by `npm run admin` (scripts/admin.mjs) or `node dist/server/admin.cjs`.
 */
import { runAdmin } from './cli.ts';

void runAdmin(process.argv.slice(2)).then((r) => {
  if (r.out) process.stdout.write(`${r.out}\n`);
  if (r.err) process.stderr.write(`${r.err}\n`);
  process.exitCode = r.code;
});
