import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // e2e tests run bin/chatkeep.js, which imports dist/: build it first (skipped when fresh);
    // then one PostgreSQL for the store tests (test/helpers/postgres.ts)
    globalSetup: ['test/e2e/global-setup.ts', 'test/helpers/postgres-setup.ts'],
    // e2e tests spawn real processes and pseudo-terminals: give them room on a 2-core machine
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
