import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    // Two files at a time even on two cores: most integration tests wait on child processes, browsers
    // and sockets rather than compute, and one at a time the suite took twice as long.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // `npm run test:unit`: the tests of src/ (analyzers, domain rules, pure services). They need no
      // build, no database and no other server.
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      // HTTP, contract and end-to-end tests: on the PostgreSQL and Redis the global setup chooses, some on
      // the build (npm test builds first).
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          setupFiles: ['test/helpers/contract.ts'],
        },
      },
    ],
  },
});
