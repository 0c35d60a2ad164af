/**
 * Version history costs (issue 14, item 8), through the real HTTP service in-process:
 * - bytes per version of a 10,000-block journal with one small edit between versions (goal: a
 *   small edit's version costs O(edit): here under 1% of the journal's state);
 * - time to read a version back (the last of a chain of deltas) against loading the journal
 *   itself, at 100, 1,000 and 10,000 blocks (goal: within 1.5x).
 */
import * as Y from 'yjs';
import { startBenchService } from './service.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function paragraphs(n: number): string {
  return Array.from({ length: n }, (_, i) => `Paragraph ${i} with *some* emphasis and a [link](https://example.com/${i}).`).join('\n\n') + '\n';
}

export async function benchVersions(): Promise<Record<string, number>> {
  const { svc, call: request } = await startBenchService();
  const call = async (method: string, path: string, body?: unknown) => (await request(method, path, body)).json;
  const out: Record<string, number> = {};
  try {
    for (const blocks of [100, 1_000, 10_000]) {
      const id = (await call('PUT', '/v1/journals/editor/import_from_markdown', { markdown: paragraphs(blocks) })).journal_id as string;
      const ids = ((await call('GET', `/v1/journals/editor/model/${id}`)).model.content as { attrs: { id: string } }[]).map((b) => b.attrs.id);
      const journalBytes = Y.encodeStateAsUpdate((await svc.ctx.registry.open((await svc.ctx.journals.store.findById(id))!))!.doc).byteLength;
      const sizes: number[] = [];
      let last = '';
      for (let v = 0; v < 10; v++) {
        const taken = await call('POST', `/v1/journals/versions/${id}`, { name: `v${v}` });
        if (v > 0) sizes.push(taken.bytes);
        last = taken.version_id;
        await call('PATCH', '/v1/journals/editor/edit', {
          journal_id: id,
          operations: [{ type: 'update_node', nodeId: ids[(v * 37) % ids.length], nodeType: 'paragraph', params: [{ content: `Edited ${v}.` }] }],
        });
      }
      const row = (await svc.ctx.journals.store.findById(id))!;
      const readTimes: number[] = [];
      const loadTimes: number[] = [];
      for (let i = 0; i < 5; i++) {
        let t = performance.now();
        await call('GET', `/v1/journals/versions/${id}/${last}?format=model`);
        readTimes.push(performance.now() - t);
        await svc.ctx.registry.closeAll();
        t = performance.now();
        const live = (await svc.ctx.registry.open(row))!;
        live.blocks.find('no-such-id');
        await call('GET', `/v1/journals/editor/model/${id}`);
        loadTimes.push(performance.now() - t);
      }
      out[`versions.read_ms.${blocks}_blocks`] = Math.round(median(readTimes) * 10) / 10;
      out[`versions.journal_load_and_model_ms.${blocks}_blocks`] = Math.round(median(loadTimes) * 10) / 10;
      out[`versions.read_vs_load.${blocks}_blocks (goal <= 1.5)`] = median(readTimes) / median(loadTimes);
      if (blocks === 10_000) {
        out['versions.journal_state_bytes.10000_blocks'] = journalBytes;
        out['versions.bytes_per_small_edit_version.10000_blocks'] = median(sizes);
        out['versions.small_edit_version_vs_journal (goal < 0.01)'] = median(sizes) / journalBytes;
      }
    }
  } finally {
    await svc.close();
  }
  return out;
}
