/**
 * Journal service benchmarks (issue 2, DESIGN.md section 7), measured through the real HTTP
 * service in-process. Server time comes from the Server-Timing header, so loopback and client
 * costs stay out of the figures. Every goal is reported as a ratio taken in the same run.
 */
import * as Y from 'yjs';
import { exportMarkdown } from '../server/journals/markdown-export.ts';
import { generateMarkdown } from './markdown.ts';
import { startBenchService } from './service.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function paragraphs(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`Paragraph ${i} with *some* emphasis, a [link](https://example.com/${i}) and \`code\`.`);
  return out.join('\n\n') + '\n';
}

export async function benchJournals(): Promise<Record<string, number>> {
  const { svc, call } = await startBenchService();
  const out: Record<string, number> = {};
  try {
    // 1. create_node cost does not grow with the journal. Edits alternate between the two
    // journals so that drift on a noisy machine weighs on both alike.
    const prepare = async (blocks: number) => {
      const { json } = await call('PUT', '/v1/journals/editor/import_from_markdown', { markdown: paragraphs(blocks) });
      const id = json.journal_id as string;
      const model = (await call('GET', `/v1/journals/editor/model/${id}`)).json.model;
      return { id, ref: model.content[Math.floor(blocks / 2)].attrs.id as string, times: [] as number[] };
    };
    const small = await prepare(100);
    const large = await prepare(10_000);
    for (let i = 0; i < 230; i++) {
      for (const j of [small, large]) {
        const r = await call('PATCH', '/v1/journals/editor/edit', {
          journal_id: j.id,
          operations: [{ type: 'create_node', nodeType: 'paragraph', params: [`new ${i}`], referenceId: j.ref }],
        });
        if (i >= 30) j.times.push(r.serverMs); // warm-up excluded
      }
    }
    out['edit.create_node.p50_ms.100_blocks'] = median(small.times);
    out['edit.create_node.p50_ms.10000_blocks'] = median(large.times);
    out['edit.create_node.ratio_10000_vs_100 (goal <= 1.5)'] = median(large.times) / median(small.times);

    // 2. cold load of a 10,000-block journal vs Y.applyUpdate of the same state
    const row = (await svc.ctx.journals.store.findById(large.id))!;
    const loadTimes: number[] = [];
    const applyTimes: number[] = [];
    const exportTimes: number[] = [];
    const exportMainTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      await svc.ctx.registry.closeAll(); // compacts: the state is one snapshot
      const state = (await svc.ctx.journals.store.loadState(row.seq))!;
      const all = state.snapshot ? [state.snapshot, ...state.updates] : state.updates;
      let t = performance.now();
      const doc = new Y.Doc();
      Y.applyUpdate(doc, Y.mergeUpdates(all));
      applyTimes.push(performance.now() - t);
      doc.destroy();
      t = performance.now();
      const live = (await svc.ctx.registry.open(row))!;
      live.blocks.find('no-such-id'); // includes building the block index
      loadTimes.push(performance.now() - t);
      t = performance.now();
      const printed = exportMarkdown(live); // synchronous part: up to the first slice's end
      exportMainTimes.push(performance.now() - t);
      await printed;
      exportTimes.push(performance.now() - t);
    }
    out['load.cold_ms.10000_blocks'] = median(loadTimes);
    out['load.y_applyUpdate_ms.10000_blocks'] = median(applyTimes);
    out['load.ratio_vs_applyUpdate'] = median(loadTimes) / median(applyTimes);
    out['export.cold_ms.10000_blocks'] = median(exportTimes);
    out['export.ratio_vs_y_decode (goal < 2)'] = median(exportTimes) / median(applyTimes);
    out['export.event_loop_ms.10000_blocks (to the first yield; the rest runs in ~10 ms slices)'] = median(exportMainTimes);

    // The loop above held the event loop for seconds: let the server's keep-alive timers close the
    // idle connection now, rather than race the next request on it (ECONNRESET).
    await new Promise((r) => setTimeout(r, 500));

    // 3. import / export of a 1 MB document through the service
    const md = generateMarkdown(1_000_000);
    const mb = Buffer.byteLength(md) / 1e6;
    const imports: number[] = [];
    const exports: number[] = [];
    for (let i = 0; i < 3; i++) {
      const imp = await call('PUT', '/v1/journals/editor/import_from_markdown', { markdown: md });
      imports.push(imp.serverMs);
      const exp = await call('GET', `/v1/journals/content/${imp.json.journal_id}`);
      exports.push(exp.serverMs);
    }
    out['markdown.document_mb'] = mb;
    out['markdown.import_mb_per_s'] = mb / (median(imports) / 1000);
    out['markdown.export_mb_per_s (the first read after the import: answered from the export cached at import; cold loads are the markdown suite)'] = mb / (median(exports) / 1000);
    out['markdown.export_vs_import_time (goal <= 1.5)'] = median(exports) / median(imports);
  } finally {
    await svc.close();
  }
  return out;
}
