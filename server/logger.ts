/**
 * Structured JSON logs (pino). Credentials must never reach a log line: the paths below are
 * redacted wherever a caller passes a request-like object, and request logging records the path
 * without its query string (browser editors carry `?token=` there).
 */
import { pino, type Logger } from 'pino';

export type { Logger };

const loggers = new Map<string, Logger>();

/** One logger (and one stdout stream) per level and process, however many services start. */
export function createLogger(level: string): Logger {
  let logger = loggers.get(level);
  if (!logger) loggers.set(level, (logger = build(level)));
  return logger;
}

function build(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: [
        'authorization',
        'headers.authorization',
        'req.headers.authorization',
        'token',
        'api_key',
        'apiKey',
        '*.token',
        '*.api_key',
      ],
      censor: '[redacted]',
    },
  });
}
