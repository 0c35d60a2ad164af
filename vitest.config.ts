import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites start real servers and child processes; two workers match the 2-core machines.
    maxWorkers: 2,
  },
});
