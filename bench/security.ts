/**
 * Hostile inputs against the service with its production defaults: the worst /healthz latency
 * while each one is in flight (goal < 250 ms), and what each answered. The service runs in this
 * process, so a stalled event loop shows in the probe's latency. Bounded to about a minute.
 */
import { startTestServer } from '../test/helpers/server.ts';
import { whileProbingHealth } from '../test/security/health-probe.ts';

export async function benchSecurity(): Promise<Record<string, number>> {
  const server = await startTestServer();
  const out: Record<string, number> = {};
  try {
    const c = await server.newClient();
    const id = await c.importMarkdown('# Target\n\nText.\n');
    const attacks: Record<string, () => Promise<{ status: number }>> = {
      'edit 100 KB of *a (dry run)': () =>
        c.edit(id, [{ type: 'create_node', nodeType: 'paragraph', params: [{ content: '*a'.repeat(50_000) }] }], { dry_run: true }),
      'edit 40 KB of *a': () => c.edit(id, [{ type: 'create_node', nodeType: 'markdown', params: [{ content: '*a'.repeat(20_000) }] }]),
      'import 32 KB of *a': () => c.put('/v1/journals/editor/import_from_markdown', { markdown: '*a'.repeat(16_000) }),
      'import 4 KB of nested quotes': () => c.put('/v1/journals/editor/import_from_markdown', { markdown: '> '.repeat(2000) + 'a' }),
      'import a list nested 1,000 deep on one line': () => c.put('/v1/journals/editor/import_from_markdown', { markdown: '- '.repeat(1000) + 'a' }),
      'import a list indented 190 deep (37 KB)': () =>
        c.put('/v1/journals/editor/import_from_markdown', { markdown: Array.from({ length: 190 }, (_, i) => `${'  '.repeat(i)}- a`).join('\n') }),
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
  return out;
}
