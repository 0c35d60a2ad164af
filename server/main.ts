/** `npm start`: configuration from the environment, first-start bootstrap, graceful shutdown. */
import { startService } from './app.ts';
import { bootstrapIfEmpty } from './auth/keys.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const svc = await startService(config, logger);
  const boot = await bootstrapIfEmpty(svc.ctx.engine);
  if (boot && config.bootstrapPrintKey) {
    // Printed once, to the terminal only, never through the logger.
    process.stdout.write(
      `\nFirst start: created organization "${boot.org.name}" (${boot.org.id}, tier ${boot.org.tier}).\n` +
        `Your API key (shown once, store it now):\n\n  ${boot.api_key}\n\n`,
    );
  }
  // `listening_on` is the address bound (0.0.0.0: every interface); `url` the one to open here.
  logger.info({ url: svc.url, listening_on: `${config.host}:${svc.port}`, data_dir: config.dataDir }, 'study content service listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    svc.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
