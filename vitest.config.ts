import { defineConfig } from 'vitest/config';
import { wat } from './web/wat-plugin.js';

export default defineConfig({
  // The capture app's WebAssembly, for the unit tests of its pure modules.
  plugins: [wat()],
  test: {
    pool: 'forks',
    // Two files at a time even on two cores: while one file waits on a child process, a browser or a
    // socket, the other computes. On two cores the suite took 1085 s one file at a time, 834 s two.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // `npm run test:unit`: the tests of src/ (analyzers, domain rules, pure services) and of the web apps' pure modules. They need no
      // build, no database and no other server.
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'web/**/*.test.ts'] } },
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
