/**
 * Video engine benchmark: renders a 6-section journal (about a minute of narration) offline and
 * reports seconds of video per second of wall time and peak memory of this process and of the
 * ffmpeg children. Wired into `npm run bench` by bench/run.ts; runnable alone with
 * `npx tsx bench/video.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOutline, type PMJSON } from '../server/video/outline.ts';
import { renderVideo, shutdownSpeech } from '../server/video/engine/index.ts';
import { peakChildRssBytes, setChildMemoryTracking } from '../server/video/engine/ffmpeg.ts';

const topics: Array<[string, string[]]> = [
  ['Photosynthesis', ['Plants capture light energy with chlorophyll in their chloroplasts.', 'The light reactions split water and release oxygen.', 'The Calvin cycle fixes carbon dioxide into sugar.']],
  ['Cellular respiration', ['Cells break down glucose to release usable energy.', 'Glycolysis happens in the cytoplasm and yields a little ATP.', 'Most ATP is made in the mitochondria by oxidative phosphorylation.']],
  ['DNA', ['DNA stores genetic information in a sequence of four bases.', 'The two strands are held together by hydrogen bonds.', 'Replication copies the molecule before a cell divides.']],
  ['Proteins', ['Ribosomes translate messenger RNA into chains of amino acids.', 'The chain folds into a shape that decides its function.', 'Enzymes are proteins that speed up chemical reactions.']],
  ['Cell division', ['Mitosis produces two identical daughter cells.', 'Meiosis produces four cells with half the chromosomes.', 'Errors in division can lead to disease.']],
  ['Ecosystems', ['Energy flows from producers to consumers and decomposers.', 'Nutrients such as carbon and nitrogen are recycled.', 'Biodiversity makes ecosystems more resilient.']],
];

function journal(): PMJSON {
  let n = 0;
  const id = () => `b${++n}`;
  return {
    type: 'doc',
    content: topics.flatMap(([heading, sentences]) => [
      { type: 'heading', attrs: { id: id(), level: 2 }, content: [{ type: 'text', text: heading }] },
      {
        type: 'bullet_list',
        attrs: { id: id() },
        content: sentences.map((s) => ({ type: 'list_item', attrs: { id: id() }, content: [{ type: 'paragraph', attrs: { id: id() }, content: [{ type: 'text', text: s }] }] })),
      },
    ]),
  };
}

export async function benchVideo(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-video-'));
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 20);
  setChildMemoryTracking(true);
  try {
    const outline = buildOutline({ doc: journal() }, { title: 'Biology review' });
    let updates = 0;
    const started = performance.now();
    const result = await renderVideo(outline, { workDir: join(dir, 'job'), onProgress: () => updates++ });
    const wall = (performance.now() - started) / 1000;
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;
    return {
      video_slides: outline.slides.length,
      video_duration_s: result.durationSeconds,
      video_narration_s: result.narrationSeconds,
      video_wall_s: Math.round(wall * 100) / 100,
      video_seconds_per_wall_second: Math.round((result.durationSeconds / wall) * 100) / 100,
      video_progress_updates: updates,
      video_peak_rss_mb: mb(peakRss),
      video_peak_ffmpeg_rss_mb: mb(peakChildRssBytes()),
      // What one render job adds: this process's growth while it ran, plus its ffmpeg children.
      'video_job_peak_rss_mb (goal <= 300)': mb(peakRss - rssBefore + peakChildRssBytes()),
    };
  } finally {
    clearInterval(sampler);
    setChildMemoryTracking(false);
    await shutdownSpeech();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchVideo(), null, 2));
}
