/**
 * The README runs as written: its shell examples, pasted in order by a newcomer into a second
 * terminal once `npm start` has printed the key, against the built server.
 *
 * Convention (stated in the README's Quick start): a ```sh block is run here, every one, in the
 * order of the README, in ONE bash session (variables set by a block, such as
 * `SET_ID=$(curl … | jq -r .set_id)`, are there for the next). Commands a reader types in their own
 * terminal that cannot run inside a test (npm install, npm start, npm test, npx vitest, npm run
 * bench) are written as ```console blocks with a `$ ` prompt and are not run. Other fences (json,
 * js, output) are not shell; a fence that looks like shell but is neither (```bash, ```shell, …)
 * fails the test, so that every shell example is either run or visibly marked.
 *
 * What differs from the reader's terminal, and nothing else:
 * - the server is what `npm start` runs, `node dist/server/main.mjs`, started on an empty DATA_DIR
 *   with BOOTSTRAP_PRINT_KEY=true; the key it prints is pasted where the README shows `sk_study_…`
 *   (once, in step 3), and `http://localhost:3000` is the URL it listens on (a free port);
 * - the session's environment is the reader's (PATH without node_modules/.bin, HOME, …) plus the
 *   server's DATA_DIR, so that the admin CLI works on the server's store, as it does for a reader in
 *   the project folder with the default ./data;
 * - the session's folder links every top-level entry of the project (package.json, dist, scripts,
 *   node_modules, …), so that `npm run` and `node dist/…` work as in the project folder, while the
 *   files the examples write (video.mp4, notes/, backup/) land in a scratch folder;
 * - every block runs under `set -e -o pipefail`, and `curl` is `curl --fail-with-body --show-error`:
 *   a failing command or an HTTP error answer stops the session, and the test fails with the
 *   block's text and output. An answer that says `"success": false` or a job `"status": "failed"`
 *   fails it too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { killChildServers, startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { tempDataDir } from '../helpers/server.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** Fewer would mean blocks went missing from the extraction (11 at the time of writing). */
const MIN_BLOCKS = 11;
const SHELL_LIKE = new Set(['bash', 'shell', 'zsh', 'sh-session', 'shellsession', 'shell-session']);
const PLACEHOLDER_KEY = 'sk_study_…';
const README_URL = 'http://localhost:3000';
const MARK = '@@readme-block';

interface Fence {
  info: string;
  text: string;
  line: number;
}

/** Every fenced block of a markdown text, dedented by its fence's indentation (list items). */
function fences(markdown: string): Fence[] {
  const out: Fence[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !new RegExp(`^ {0,${indent}}\`\`\`\\s*$`).test(lines[j]!); j++) body.push(lines[j]!.slice(Math.min(indent, lines[j]!.search(/\S|$/))));
    out.push({ info: open[2]!, text: body.join('\n'), line: i + 1 });
    i = j;
  }
  return out;
}

/** The environment of a reader's terminal: no test runner's or npm's variables. */
function readerEnv(dataDir: string): NodeJS.ProcessEnv {
  const keep = ['HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'TERM'];
  const env: NodeJS.ProcessEnv = Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((p) => !p.includes(`node_modules${path.sep}.bin`))
    .join(path.delimiter);
  env.DATA_DIR = dataDir;
  return env;
}

/** A folder that is the project's as `npm run` and `node dist/…` see it, and a scratch folder for files. */
function sessionFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-readme-'));
  for (const entry of fs.readdirSync(root)) {
    if (entry.startsWith('.') || entry === 'data' || entry === 'tmp') continue;
    fs.symlinkSync(path.join(root, entry), path.join(dir, entry));
  }
  return dir;
}

/** Runs the blocks in one bash session; the output of each block, and the exit code. */
function runSession(blocks: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; outputs: string[]; timedOut: boolean }> {
  const script = [
    'exec 2>&1',
    'set -e -o pipefail',
    "trap 'echo \"[failed: $BASH_COMMAND]\"' ERR",
    'curl() { command curl --fail-with-body --show-error "$@"; }',
    ...blocks.flatMap((b, i) => [`echo '${MARK} ${i}'`, b]),
    `echo '${MARK} end'`,
  ].join('\n');
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let all = '';
    child.stdout.on('data', (d) => (all += d));
    child.stderr.on('data', (d) => (all += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const outputs: string[] = [];
      for (const part of all.split(`${MARK} `).slice(1)) {
        const nl = part.indexOf('\n');
        const which = part.slice(0, nl);
        if (which !== 'end') outputs[Number(which)] = part.slice(nl + 1);
      }
      resolve({ code: timedOut ? null : code, outputs, timedOut });
    });
  });
}

let server: ChildServer;
let dataDir: string;

beforeAll(async () => {
  // The reader's first start: an empty DATA_DIR, the key printed once.
  dataDir = tempDataDir();
  server = await startChildServer(dataDir, { BOOTSTRAP_PRINT_KEY: 'true' });
});
afterAll(() => killChildServers());

it("runs every sh block of the README in order, as a newcomer pastes them, against the built server", { timeout: 420_000 }, async () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const all = fences(readme);
  const unmarked = all.filter((f) => SHELL_LIKE.has(f.info));
  expect(unmarked.map((f) => `README.md:${f.line} \`\`\`${f.info}`), 'shell blocks must be ```sh (run here) or ```console (not run)').toEqual([]);
  const sh = all.filter((f) => f.info === 'sh');
  expect(sh.length).toBeGreaterThanOrEqual(MIN_BLOCKS);

  const key = /Your API key \(shown once, store it now\):\s+(sk_study_\S+)/.exec(server.printed)?.[1];
  expect(key, `the first start prints the key; it printed:\n${server.printed}`).toBeDefined();
  const joined = sh.map((f) => f.text).join('\n');
  expect(joined.split(PLACEHOLDER_KEY).length - 1, `the README shows once where to paste the key (${PLACEHOLDER_KEY})`).toBe(1);
  expect(joined).toContain(README_URL);
  const blocks = sh.map((f) => f.text.replaceAll(PLACEHOLDER_KEY, key!).replaceAll(README_URL, server.url));

  const folder = sessionFolder();
  try {
    const { code, outputs, timedOut } = await runSession(blocks, folder, readerEnv(dataDir), 400_000);
    const ran = outputs.length;
    const last = ran - 1;
    const report = (i: number, why: string) =>
      `README.md:${sh[i]!.line}: the block ${why}\n--- block ---\n${sh[i]!.text}\n--- output ---\n${(outputs[i] ?? '').slice(-6000)}`;
    if (timedOut) expect.fail(report(last, 'did not finish within 400 s'));
    if (code !== 0) expect.fail(report(last, `failed (exit ${code})`));
    outputs.forEach((out, i) => {
      if (/"success":\s*false|"status":\s*"(failed|status_error)"/.test(out)) expect.fail(report(i, 'ran, but an answer reports a failure'));
    });
    console.log(`README: ran ${ran} of ${sh.length} sh blocks in order against the built server (${all.length - sh.length} other fenced blocks not run)`);
    expect(ran).toBe(sh.length);
    // The files the examples write, where a reader finds them.
    expect(fs.statSync(path.join(folder, 'video.mp4')).size).toBeGreaterThan(1000);
    expect(fs.readdirSync(path.join(folder, 'backup'))).toContain('mitosis.md');
  } finally {
    // The links first (never followed), then what the examples wrote.
    for (const entry of fs.readdirSync(folder)) if (fs.lstatSync(path.join(folder, entry)).isSymbolicLink()) fs.unlinkSync(path.join(folder, entry));
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
