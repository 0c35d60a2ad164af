/**
 * Hostile inputs against the service with its production defaults: the worst /healthz latency
 * while each one is in flight (goal < 250 ms), and what each answered. REST attacks run against
 * a server in this process (a stalled event loop shows in the probe's latency too); editor
 * attacks against a child process, whose peak memory is read from /proc. About two minutes.
 */
import fs from 'node:fs';
import { killChildServers, prepareDataDir, startChildServer } from '../test/helpers/child-server.ts';
import { Client, startTestServer } from '../test/helpers/server.ts';
import { awarenessMessage, flood, heldUpdates, smallUpdates } from '../test/realtime/hostile-helpers.ts';
import { whileProbingHealth } from '../test/security/health-probe.ts';
import { longGradeRequest } from '../test/security/hostile-grading.ts';

export async function benchSecurity(): Promise<Record<string, number>> {
  const server = await startTestServer();
  const out: Record<string, number> = {};
  try {
    const c = await server.newClient();
    const id = await c.importMarkdown('# Target\n\nText.\n');
    // Issue 26: a journal holding one paragraph of 28,000 emphasis runs, its export made stale.
    const runs = await c.importMarkdown('x*a* '.repeat(28_000));
    await c.edit(runs, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: 'end' }] }]);
    const table = (cols: number) => ['|' + ' h |'.repeat(cols), '|' + ' - |'.repeat(cols), '|' + ' c |'.repeat(cols)].join('\n');
    const attacks: Record<string, () => Promise<{ status: number }>> = {
      'edit 400 x 1 KB of *a (dry run)': () =>
        c.edit(id, Array.from({ length: 400 }, (_, i) => ({ type: 'create_node', nodeType: 'paragraph', params: [{ content: `${i}` + '*a'.repeat(500) }] })), { dry_run: true }),
      'edit a table row of 100,000 cells': () => c.edit(id, [{ type: 'create_node', nodeType: 'table', params: [{ rows: [Array(100_000).fill('a')] }] }]),
      'import a 10,000-column table': () => c.put('/v1/journals/editor/import_from_markdown', { markdown: table(10_000) }),
      'import 1,001 footnote definitions citing each other': () =>
        c.put('/v1/journals/editor/import_from_markdown', { markdown: Array.from({ length: 1001 }, (_, i) => `[^${i}]: see [^${(i + 1) % 1001}]`).join('\n\n') }),
      'edit 24 KiB of reference links to a 4 KB destination': () =>
        c.edit(id, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: `[r]: https://e.com/${'x'.repeat(4000)}\n\n` + '[a][r] '.repeat(3000) }] }]),
      'GET content of a paragraph of 28,000 emphasis runs': () => c.get(`/v1/journals/content/${runs}`),
      'edit 100 KB of *a (dry run)': () =>
        c.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: '*a'.repeat(50_000) }] }], { dry_run: true }),
      'edit 40 KB of *a': () => c.edit(id, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: '*a'.repeat(20_000) }] }]),
      'import 32 KB of *a': () => c.put('/v1/journals/editor/import_from_markdown', { markdown: '*a'.repeat(16_000) }),
      'import 4 KB of nested quotes': () => c.put('/v1/journals/editor/import_from_markdown', { markdown: '> '.repeat(2000) + 'a' }),
      'import a list nested 1,000 deep on one line': () => c.put('/v1/journals/editor/import_from_markdown', { markdown: '- '.repeat(1000) + 'a' }),
      'import a list indented 190 deep (37 KB)': () =>
        c.put('/v1/journals/editor/import_from_markdown', { markdown: Array.from({ length: 190 }, (_, i) => `${'  '.repeat(i)}- a`).join('\n') }),
      'grade a 20 KB essay against a 110-criterion rubric': () => c.post('/v1/interactives/practice/grade', { problem: longGradeRequest() }),
      'edit body nested 100,000 deep': () =>
        c.request('PATCH', '/v1/journals/editor/edit', `{"journal_id":"${id}","operations":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, { 'idempotency-key': 'k' }),
    };
    let worst = 0;
    for (const [name, attack] of Object.entries(attacks)) {
      const { result, worstMs } = await whileProbingHealth(server.url, attack);
      out[`healthz.worst_ms: ${name} -> ${result.status} (goal < 250)`] = worstMs;
      worst = Math.max(worst, worstMs);
    }
    out['healthz.worst_ms over all REST attacks (goal < 250)'] = worst;

  } finally {
    await server.close();
  }
  Object.assign(out, await editorAttacks());
  return out;
}

/** Peak and current RSS of a process, from /proc (Linux). */
function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/**
 * Editors: raw sockets speaking y-protocols, as a hostile client would, against the server in a
 * child process, so that its memory is its own. Messages are made before each attack starts.
 */
async function editorAttacks(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const { dataDir, key, orgId } = await prepareDataDir();
  const child = await startChildServer(dataDir); // it logs at info: the helper reads the 'listening' line
  try {
    const server = { url: child.url };
    const c = new Client(child.url, key, orgId);
    const id = await c.importMarkdown('# Target\n\nText.\n');
    const attacks: Record<string, Uint8Array[]> = {
      'editor sends 30 MB of updates with missing dependencies': [...heldUpdates(30 * 1024 * 1024)],
      'editor sends 5,000 small updates at once': [...smallUpdates(5000)],
      'editor claims 2,000 awareness ids': [awarenessMessage(Array.from({ length: 2000 }, (_, i) => ({ clientId: 1000 + i, clock: 1, state: { user: 'x'.repeat(900) } })))],
    };
    let worst = 0;
    for (const [name, messages] of Object.entries(attacks)) {
      fs.writeFileSync(`/proc/${child.child.pid}/clear_refs`, '5'); // resets the peak RSS
      const before = memoryOf(child.child.pid!);
      const { result, worstMs } = await whileProbingHealth(server.url, () => flood(server.url, key, id, messages));
      const after = memoryOf(child.child.pid!);
      out[`healthz.worst_ms: ${name} -> close ${result.status} (goal < 250)`] = worstMs;
      out[`server rss.peak_growth_mb: ${name}`] = after.peakMb - before.rssMb;
      worst = Math.max(worst, worstMs);
    }
    out['healthz.worst_ms over all editor attacks (goal < 250)'] = worst;
  } finally {
    killChildServers();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}
