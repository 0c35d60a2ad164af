/**
 * Builds the video domain on the shared asynchronous infrastructure (the job worker and webhook
 * outbox made by createAsyncDomains): registers the `video_render` job kind and its events.
 */
import { join } from 'node:path';
import type { CreditLedger } from '../billing/credits.ts';
import type { Config } from '../config.ts';
import type { JobWorker } from '../jobs/worker.ts';
import type { JournalService } from '../journals/service.ts';
import type { Logger } from '../logger.ts';
import type { StorageEngine } from '../storage/engine.ts';
import type { WebhookOutbox } from '../webhooks/outbox.ts';
import { VideoService } from './service.ts';
import { VideoStore } from './store.ts';

export function createVideoDomain(
  engine: StorageEngine,
  config: Config,
  logger: Logger,
  deps: { journals: JournalService; credits: CreditLedger; jobs: JobWorker; webhooks: WebhookOutbox },
): VideoService {
  return new VideoService({
    store: new VideoStore(engine),
    jobs: deps.jobs,
    outbox: deps.webhooks,
    credits: deps.credits,
    journals: deps.journals,
    logger,
    options: {
      videosDir: join(config.dataDir, 'videos'),
      b64MaxBytes: config.video.b64MaxBytes,
      ffmpegThreads: config.video.ffmpegThreads,
      publicBaseUrl: config.publicBaseUrl,
    },
  });
}
