/**
 * The server as a child process, for crash and shutdown tests: what `npm start` runs, the compiled
 * dist/server/main.mjs (built before the suites by test/helpers/build-server.ts), so that these
 * suites also test the build. The URL comes from the "listening" log line (PORT=0 picks a free port).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createApiKey, createOrganization, type Tier } from '../../server/auth/keys.ts';
import type { StorageEngine } from '../../server/storage/engine.ts';
import { isPostgresUrl, openStorageEngine } from '../../server/storage/open.ts';
import { tempDataDir, testDatabaseEnv } from './server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];

export interface ChildServer {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  /** What it printed on stdout before listening that is not a log line (the first start's key). */
  printed: string;
}

/**
 * Runs `fn` on a store, `store` being a postgres:// URL or a SQLite file, with its migrations
 * applied (as a starting server would apply them); closes it after.
 */
export async function withEngine<T>(store: string, fn: (engine: StorageEngine) => Promise<T>): Promise<T> {
  const engine = await openStorageEngine(isPostgresUrl(store) ? { databaseUrl: store, sqliteFile: '', poolSize: 2 } : { sqliteFile: store });
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

/**
 * The store of a DATA_DIR as the servers on it see it: the SQLite file in it, or the suite's
 * PostgreSQL database for it (TEST_ENGINE=postgres, test/helpers/server.ts).
 */
async function storeOf(dataDir: string): Promise<string> {
  const { DATABASE_URL } = await testDatabaseEnv(dataDir);
  return DATABASE_URL ?? path.join(dataDir, 'study.db');
}

/** Runs `fn` on the store of a DATA_DIR (storeOf). */
export async function withStore<T>(dataDir: string, fn: (engine: StorageEngine) => Promise<T>): Promise<T> {
  return withEngine(await storeOf(dataDir), fn);
}

/** An organization with one key, made in `store` (see withEngine) before any server runs on it. */
export function createOrgWithKey(store: string, name: string, tier: Tier = 'enterprise'): Promise<{ key: string; orgId: string }> {
  return withEngine(store, async (engine) => {
    const org = await createOrganization(engine, name, tier);
    const { api_key } = await createApiKey(engine, org.id);
    return { key: api_key, orgId: org.id };
  });
}

/** A fresh DATA_DIR (and database) holding one organization and key, made before any server runs. */
export async function prepareDataDir(tier: Tier = 'enterprise'): Promise<{ dataDir: string; key: string; orgId: string }> {
  const dataDir = tempDataDir();
  return { dataDir, ...(await createOrgWithKey(await storeOf(dataDir), 'child-server', tier)) };
}

export async function startChildServer(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const database = await testDatabaseEnv(dataDir);
  const child = spawn(process.execPath, ['dist/server/main.mjs'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', BOOTSTRAP_PRINT_KEY: 'false', ...database, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    let found = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (found) return; // keep draining the pipe, stop parsing
      buf += chunk.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const line of lines) {
        try {
          const j = JSON.parse(line);
          if (j.msg === 'study content service listening') {
            found = true;
            resolve(j.url);
          }
        } catch {
          printed += `${line}\n`; // not a log line
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
  return { child, url, exited, printed };
}

/**
 * The last `max` lines a child server logged (pino JSON lines), kept as they come, for a failure's
 * report; the array is updated in place.
 */
export function keepLastLogLines(child: ChildProcess, max: number): string[] {
  const lines: string[] = [];
  let buf = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buf += chunk.toString();
    const complete = buf.split('\n');
    buf = complete.pop()!;
    for (const l of complete) {
      lines.push(l);
      if (lines.length > max) lines.shift();
    }
  });
  return lines;
}

/** The log lines at warn level and above (pino: level >= 40). */
export function warnLines(lines: string[]): string[] {
  return lines.filter((l) => {
    try {
      return (JSON.parse(l).level ?? 0) >= 40;
    } catch {
      return false;
    }
  });
}

/** SIGKILLs every child server still running (call from afterEach). */
export function killChildServers(): void {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
