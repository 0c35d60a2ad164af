/**
 * Bulk import and export over the REST API:
 *   npm run cli -- import <files or folders…> [--concurrency N]
 *   npm run cli -- export <folder> [--all | --journal ID …] [--concurrency N]
 * STUDY_API_KEY holds the key, STUDY_API_URL the service (default http://localhost:3000).
 * Exit codes: 0 all succeeded, 1 some items failed, 2 bad usage or configuration.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiError, StudyClient } from '../shared/client.ts';
import { collectMarkdownFiles, safeFileStem, titleFor, UniqueNames } from './files.ts';
import { Progress } from './progress.ts';

const USAGE = `Usage:
  npm run cli -- import <files or folders…> [--concurrency N]
  npm run cli -- export <folder> [--all | --journal ID …] [--concurrency N]
Environment: STUDY_API_KEY (required), STUDY_API_URL (default http://localhost:3000)`;

const MAX_MARKDOWN_BYTES = 1024 * 1024;

class UsageError extends Error {}

interface Summary {
  ok: number;
  failed: { item: string; error: string }[];
}

/** Runs `work` over `items` with at most `limit` in flight; one failure never stops the rest. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function describe(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

async function runImport(client: StudyClient, inputs: string[], concurrency: number, progress: (n: number) => Progress): Promise<Summary> {
  if (inputs.length === 0) throw new UsageError('import needs at least one file or folder');
  let files: string[];
  try {
    files = await collectMarkdownFiles(inputs);
  } catch (err) {
    throw new UsageError(describe(err));
  }
  const bar = progress(files.length);
  const summary: Summary = { ok: 0, failed: [] };
  await pool(files, concurrency, async (file) => {
    const rel = path.relative(process.cwd(), file) || file;
    try {
      const markdown = await fs.readFile(file, 'utf8');
      if (Buffer.byteLength(markdown) > MAX_MARKDOWN_BYTES) throw new Error('larger than the 1 MiB markdown limit');
      const r = await client.importMarkdown(markdown, titleFor(file));
      summary.ok++;
      bar.tick(`${rel} -> ${r.journal_id}`);
    } catch (err) {
      summary.failed.push({ item: rel, error: describe(err) });
      bar.tick(rel, describe(err));
    }
  });
  bar.finish();
  return summary;
}

async function runExport(
  client: StudyClient,
  folder: string,
  ids: string[],
  all: boolean,
  concurrency: number,
  progress: (n: number) => Progress,
): Promise<Summary> {
  if (all === ids.length > 0) throw new UsageError('export needs either --all or one or more --journal ID');
  await fs.mkdir(folder, { recursive: true });
  if (all) for await (const j of client.listAll()) ids.push(j.id);
  const names = new UniqueNames(await fs.readdir(folder));
  const bar = progress(ids.length);
  const summary: Summary = { ok: 0, failed: [] };
  await pool(ids, concurrency, async (id) => {
    try {
      const j = await client.content(id);
      const name = names.take(safeFileStem(j.title));
      // 'wx': never overwrite a file that appeared meanwhile.
      await fs.writeFile(path.join(folder, name), j.content ?? '', { flag: 'wx' });
      summary.ok++;
      bar.tick(`${id} -> ${name}`);
    } catch (err) {
      summary.failed.push({ item: id, error: describe(err) });
      bar.tick(id, describe(err));
    }
  });
  bar.finish();
  return summary;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        concurrency: { type: 'string', default: '4' },
        all: { type: 'boolean', default: false },
        journal: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const [command, ...rest] = positionals;
    const concurrency = Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new UsageError('--concurrency must be an integer from 1 to 64');
    const apiKey = env.STUDY_API_KEY;
    if (!apiKey) throw new UsageError('STUDY_API_KEY is not set');
    let bar: Progress | undefined;
    const client = new StudyClient({
      baseUrl: env.STUDY_API_URL || 'http://localhost:3000',
      apiKey,
      onWait: ({ status, waitMs, attempt }) =>
        bar?.note(`${status === 429 ? 'rate limited' : status === 'network' ? 'network error' : `server error ${status}`}; retrying in ${(waitMs / 1000).toFixed(1)} s (attempt ${attempt + 1})`),
    });
    const progress = (label: string) => (n: number) => (bar = new Progress(n, label));
    let summary: Summary;
    if (command === 'import') summary = await runImport(client, rest, concurrency, progress('imported'));
    else if (command === 'export') {
      if (rest.length !== 1) throw new UsageError('export needs exactly one folder');
      summary = await runExport(client, rest[0]!, [...(values.journal ?? [])], values.all, concurrency, progress('exported'));
    } else throw new UsageError(command ? `unknown command "${command}"` : 'missing command');
    const total = summary.ok + summary.failed.length;
    process.stdout.write(`${command}: ${summary.ok} of ${total} succeeded, ${summary.failed.length} failed\n`);
    for (const f of summary.failed) process.stdout.write(`  failed ${f.item}: ${f.error}\n`);
    return summary.failed.length === 0 ? 0 : 1;
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`${describe(err)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
