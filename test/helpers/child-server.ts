/**
 * The server as a child process, for crash and shutdown tests. Node runs server/main.ts with tsx
 * as a loader (`node --import tsx`), not through the tsx CLI: the CLI is a parent process that
 * relays signals, and SIGKILL cannot be relayed, so it would kill the wrapper and leave the real
 * server running. The URL comes from the "listening" log line (PORT=0 picks a free port).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createApiKey, createOrganization, type Tier } from '../../server/auth/keys.ts';
import { openDatabase } from '../../server/storage/db.ts';
import { tempDataDir } from './server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];

export interface ChildServer {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

/** A fresh DATA_DIR holding one organization and key, made before any server runs. */
export function prepareDataDir(tier: Tier = 'enterprise'): { dataDir: string; key: string; orgId: string } {
  const dataDir = tempDataDir();
  const db = openDatabase(path.join(dataDir, 'study.db'));
  const org = createOrganization(db, 'child-server', tier);
  const { api_key } = createApiKey(db, org.id);
  db.close();
  return { dataDir, key: api_key, orgId: org.id };
}

export async function startChildServer(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', BOOTSTRAP_PRINT_KEY: 'false', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
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
          /* not a log line */
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
  return { child, url, exited };
}

/** SIGKILLs every child server still running (call from afterEach). */
export function killChildServers(): void {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
