/**
 * Builds the asynchronous side of the service from the configuration: the job worker, the
 * webhook outbox and its secrets, the optional LLM client, and the practice domain on top. The
 * worker and the outbox are generic; videos register their own job kind and event types later.
 */
import type { CreditLedger } from '../billing/credits.ts';
import type { Config } from '../config.ts';
import type { JournalService } from '../journals/service.ts';
import { JobStore } from '../jobs/store.ts';
import { JobWorker } from '../jobs/worker.ts';
import { LlmClient } from '../llm/client.ts';
import type { Logger } from '../logger.ts';
import type { StorageEngine } from '../storage/engine.ts';
import { WebhookOutbox } from '../webhooks/outbox.ts';
import { WebhookSecrets } from '../webhooks/secrets.ts';
import type { WorkerPool } from '../workers/pool.ts';
import { JournalSearch } from '../journals/search.ts';
import { PracticeService } from './service.ts';
import { PracticeStore } from './store.ts';

export interface AsyncDomains {
  jobs: JobWorker;
  webhooks: WebhookOutbox;
  practice: PracticeService;
  llm?: LlmClient;
}

export function createAsyncDomains(engine: StorageEngine, config: Config, logger: Logger, journals: JournalService, credits: CreditLedger, workers?: WorkerPool): AsyncDomains {
  const jobs = new JobWorker(new JobStore(engine), config.jobs, logger);
  const webhooks = new WebhookOutbox(engine, new WebhookSecrets(engine), config.webhooks, logger);
  const llm = config.llm ? new LlmClient(config.llm) : undefined;
  const practice = new PracticeService({
    store: new PracticeStore(engine),
    jobs,
    outbox: webhooks,
    credits,
    search: new JournalSearch(engine, journals),
    llm,
    logger,
    workers,
  });
  return { jobs, webhooks, practice, llm };
}
