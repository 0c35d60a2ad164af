import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Parser, HtmlRenderer } from 'commonmark';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../server/billing/clock.ts';
import { Client, startTestServer, tempDataDir, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let c: Client;

beforeAll(async () => {
  server = await startTestServer();
  c = await server.newClient('enterprise');
});
afterAll(() => server.close());

function runCli(
  args: string[],
  env: Record<string, string>,
  onStderr?: (all: string) => void,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.resolve('node_modules/.bin/tsx'), ['cli/main.ts', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      onStderr?.(stderr);
    });
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const html = (md: string) => new HtmlRenderer().render(new Parser().parse(md));

function sampleMarkdown(i: number): string {
  const kinds = [
    `# Note ${i}\n\nPlain paragraph with *emphasis* and **strong** text.\n`,
    `## List ${i}\n\n- one\n- two\n  - nested ${i}\n\n1. first\n2. second\n`,
    `> Quote ${i}\n> continues\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n`,
    `Text with a [link](https://example.com/${i} "title") and \`code\`.\n\n---\n\n![img ${i}](https://example.com/${i}.png)\n`,
  ];
  return kinds[i % kinds.length]!;
}

it('imports 200 files with concurrency 8 and exports them back with equal content', async () => {
  const src = tempDataDir();
  fs.mkdirSync(path.join(src, 'nested'));
  const originals = new Map<string, string>();
  for (let i = 0; i < 200; i++) {
    const name = `note-${String(i).padStart(3, '0')}`;
    const md = sampleMarkdown(i);
    originals.set(name, md);
    fs.writeFileSync(path.join(src, i % 2 ? 'nested' : '', `${name}.md`), md);
  }
  fs.writeFileSync(path.join(src, 'ignored.txt'), 'not markdown');
  const env = { STUDY_API_KEY: c.key!, STUDY_API_URL: server.url };
  const imp = await runCli(['import', src, '--concurrency', '8'], env);
  expect(imp.stderr).not.toMatch(/failed/);
  expect(imp.stdout).toContain('import: 200 of 200 succeeded, 0 failed');
  expect(imp.code).toBe(0);

  const out = tempDataDir();
  const exp = await runCli(['export', out, '--all', '--concurrency', '8'], env);
  expect(exp.stdout).toContain('export: 200 of 200 succeeded, 0 failed');
  expect(exp.code).toBe(0);
  const files = fs.readdirSync(out).sort();
  expect(files).toHaveLength(200);
  for (const f of files) {
    const stem = f.replace(/\.md$/, '');
    expect(originals.has(stem), f).toBe(true);
    expect(html(fs.readFileSync(path.join(out, f), 'utf8')), f).toBe(html(originals.get(stem)!));
  }
}, 120_000);

it('reports one failed file without stopping the rest, and exits 1', async () => {
  const src = tempDataDir();
  fs.writeFileSync(path.join(src, 'good.md'), '# fine\n');
  fs.writeFileSync(path.join(src, 'huge.md'), 'x'.repeat(1024 * 1024 + 1));
  fs.writeFileSync(path.join(src, 'also-good.md'), 'ok\n');
  const r = await runCli(['import', src], { STUDY_API_KEY: c.key!, STUDY_API_URL: server.url });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('import: 2 of 3 succeeded, 1 failed');
  expect(r.stdout).toMatch(/failed .*huge\.md: larger than the 1 MiB markdown limit/);
});

it('exports chosen journals with safe, unique file names', async () => {
  const a = await c.importMarkdown('first\n', 'Same/Title: <x>');
  const b = await c.importMarkdown('second\n', 'Same/Title: <x>');
  const out = tempDataDir();
  fs.writeFileSync(path.join(out, 'Same Title x.md'), 'pre-existing');
  const r = await runCli(['export', out, '--journal', a, '--journal', b], { STUDY_API_KEY: c.key!, STUDY_API_URL: server.url });
  expect(r.code).toBe(0);
  const files = fs.readdirSync(out).sort();
  expect(files).toEqual(['Same Title x (2).md', 'Same Title x (3).md', 'Same Title x.md']);
  expect(fs.readFileSync(path.join(out, 'Same Title x.md'), 'utf8')).toBe('pre-existing');
  const contents = files.slice(0, 2).map((f) => fs.readFileSync(path.join(out, f), 'utf8')).sort();
  expect(contents).toEqual(['first\n', 'second\n']);
});

it('says what is wrong on bad usage and exits 2', async () => {
  let r = await runCli(['import', 'x'], { STUDY_API_KEY: '' });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/STUDY_API_KEY is not set/);
  r = await runCli(['export', tempDataDir()], { STUDY_API_KEY: 'k' });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/--all or one or more --journal/);
  r = await runCli(['frobnicate'], { STUDY_API_KEY: 'k' });
  expect(r.code).toBe(2);
  r = await runCli(['import', '/no/such/path'], { STUDY_API_KEY: 'k' });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/no such file/i);
}, 120_000); // four command line processes, one after the other

it('fails every item clearly with a wrong key', async () => {
  const src = tempDataDir();
  fs.writeFileSync(path.join(src, 'a.md'), 'a\n');
  const r = await runCli(['import', src], { STUDY_API_KEY: 'sk_study_wrong', STUDY_API_URL: server.url });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/failed .*a\.md: 401: Invalid or revoked API key/);
});

it('waits out a 429 during an import instead of counting it as a failure', async () => {
  // The limiter's clock stands one second before a minute ends; the test moves it on once the
  // command line has been refused, so the retry after Retry-After lands in a fresh window.
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12, 0, 59));
  const limited = await startTestServer({ clock });
  try {
    const dev = await limited.newClient('developer');
    await limited.svc.ctx.billing.setLimit(dev.orgId, 'PUT /journals/editor/import_from_markdown', 'minute', 3);
    const src = tempDataDir();
    for (let i = 0; i < 6; i++) fs.writeFileSync(path.join(src, `n${i}.md`), `note ${i}\n`);
    let advanced = false;
    const r = await runCli(['import', src, '--concurrency', '2'], { STUDY_API_KEY: dev.key!, STUDY_API_URL: limited.url }, (err) => {
      if (!advanced && /rate limited; retrying in/.test(err)) {
        advanced = true;
        clock.advance(60_000);
      }
    });
    expect(advanced).toBe(true);
    expect(r.stdout).toContain('import: 6 of 6 succeeded, 0 failed');
    expect(r.code).toBe(0);
    const list = await dev.get('/v1/journals/list');
    expect(list.body.journals).toHaveLength(6);
  } finally {
    await limited.close();
  }
}, 60_000);
