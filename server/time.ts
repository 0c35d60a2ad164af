/** Timestamps as stored rows and answers carry them: ISO-8601 in UTC, with milliseconds. */
export function nowIso(): string {
  return new Date().toISOString();
}
