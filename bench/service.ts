/**
 * The real service in this process for the benchmarks that go through HTTP: an enterprise key,
 * and `call`, which answers the JSON and the server's own time (Server-Timing), so loopback and
 * client costs stay out of the figures.
 */
import { startService, type RunningService } from '../server/app.ts';
import { createApiKey, createOrganization } from '../server/auth/keys.ts';
import { loadConfig } from '../server/config.ts';
import { tempDataDir } from '../test/helpers/server.ts';

export interface BenchService {
  svc: RunningService;
  call(method: string, path: string, body?: unknown): Promise<{ json: any; serverMs: number }>;
}

export async function startBenchService(): Promise<BenchService> {
  const config = loadConfig({ DATA_DIR: tempDataDir(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const svc = await startService(config);
  const org = await createOrganization(svc.ctx.engine, 'bench', 'enterprise');
  const { api_key } = await createApiKey(svc.ctx.engine, org.id);
  const headers = { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' };
  return {
    svc,
    async call(method, path, body) {
      const res = await fetch(svc.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as any;
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      const serverMs = Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]);
      return { json, serverMs };
    },
  };
}
