import { defineConfig } from 'vitest/config';
import { POSTGRES_HINT, postgresAvailability } from './test/helpers/databases.ts';

/**
 * Projects: `sqlite` runs every suite; `postgres` runs the suites that go through the service's
 * storage (API, realtime, billing, admin, jobs; not those about conversion time limits and event
 * loop latency, which measure CPU, not storage) again with each server on a fresh PostgreSQL
 * database (TEST_ENGINE=postgres, see test/helpers/server.ts). Without a reachable PostgreSQL
 * (TEST_DATABASE_URL, default postgres://127.0.0.1:5432/test) that project is left out, saying
 * how to enable it; with TEST_DATABASE_URL set and unusable, the run fails. `latency` runs the
 * suites that bound latencies alone, `cluster` three instances on PostgreSQL and Redis per file,
 * `chromium` the web app in Debian's Chromium (test/browser; skipped without it, failing on CI).
 * The projects run one after another (sequence.groupOrder).
 */
const STORAGE_SUITES = [
  'test/journals/!(read-model|large-markdown).test.ts',
  'test/realtime/**/*.test.ts',
  'test/billing/**/*.test.ts',
  'test/admin/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/security/hostile-journal.test.ts',
  'test/security/control-characters.test.ts',
  'test/webhooks/**/*.test.ts',
  'test/practice-api/**/*.test.ts',
  'test/video-api/**/*.test.ts',
  'test/flashcards-api/**/*.test.ts',
  'test/ops/**/*.test.ts',
  'test/keys/**/*.test.ts',
  'test/openapi/**/*.test.ts',
];

const CLUSTER_SUITES = ['test/cluster/**/*.test.ts'];
/**
 * What users run, as they run it: the built server (`node dist/server/main.mjs`, as the README
 * starts it) as a child process, the admin CLI from the build, the README's own shell examples.
 */
const BUILT_SUITES = ['test/built/**/*.test.ts'];
/** The web app in real Chromium (test/browser): one file at a time, after everything else. */
const BROWSER_SUITES = ['test/browser/**/*.test.ts'];
/**
 * Suites that bound event-loop latency (/healthz under 250 ms while hostile input is in flight) or
 * conversion time: they run alone, one file at a time, so that what they measure is the service,
 * not the other suites sharing the two cores.
 */
const LATENCY_SUITES = ['test/security/hostile-rest.test.ts', 'test/security/hostile-markdown-*.test.ts', 'test/security/hostile-editors.test.ts', 'test/realtime/hostile-rate.test.ts', 'test/journals/large-markdown.test.ts', 'test/journals/sliced-load.test.ts'];

/** Suites that already run each case on both engines themselves (engineCases). */
const ENGINE_PARAMETERIZED = ['test/journals/commit.test.ts'];

const postgres = await postgresAvailability();
if (!postgres.url) console.warn(`PostgreSQL project skipped: ${POSTGRES_HINT}.`);
const shared = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    // Suites start real servers and child processes; two workers match the 2-core machines.
    maxWorkers: 2,
    globalSetup: ['test/helpers/build-server.ts'],
    projects: [
      // First, on a quiet machine: what the other groups leave behind (child processes exiting,
      // databases being dropped) still takes CPU when the next group starts.
      {
        extends: true,
        // The bound is on what the server's own main thread accounts for (test/security/health-probe.ts),
        // so a neighbour's burst on the shared cores does not cross it: no retries.
        test: { ...shared, name: 'latency', include: LATENCY_SUITES, env: { TEST_ENGINE: 'sqlite' }, fileParallelism: false, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { ...shared, name: 'sqlite', include: ['test/**/*.test.ts'], exclude: [...CLUSTER_SUITES, ...LATENCY_SUITES, ...BROWSER_SUITES, ...BUILT_SUITES], env: { TEST_ENGINE: 'sqlite' }, sequence: { groupOrder: 1 } },
      },
      // Child processes of the build: after the in-process suites, two files at a time.
      { extends: true, test: { ...shared, name: 'built', include: BUILT_SUITES, env: { TEST_ENGINE: 'sqlite' }, sequence: { groupOrder: 2 } } },
      ...(postgres.url
        ? [
            {
              extends: true as const,
              test: {
                ...shared,
                name: 'postgres',
                include: STORAGE_SUITES,
                exclude: [...ENGINE_PARAMETERIZED, ...LATENCY_SUITES],
                env: { TEST_ENGINE: 'postgres', TEST_DATABASE_URL: postgres.url },
                // After the sqlite project, not beside it: two projects at once on two cores starve the
                // suites that bound event-loop latency and conversion time.
                sequence: { groupOrder: 3 },
              },
            },
          ]
        : []),
      // Three instances per file as child processes: last, alone (the files skip themselves without engines).
      { extends: true, test: { ...shared, name: 'cluster', include: CLUSTER_SUITES, sequence: { groupOrder: 4 } } },
      // A browser and the service share the two cores: one file at a time, generous time limits.
      {
        extends: true,
        test: {
          name: 'chromium',
          include: BROWSER_SUITES,
          globalSetup: ['test/browser/build-web.ts'],
          env: { TEST_ENGINE: 'sqlite' },
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 5 },
        },
      },
    ],
  },
});
