import { defineConfig } from 'vitest/config';

/**
 * `npm run soak`: the long checks that `npm test` runs in small (tests/soak/): the engine truth test's 200 fixed
 * seeds and 50 drawn at random, and the browser files that span wall-clock minutes. Builds first (package.json).
 */
export default defineConfig({
  test: {
    maxWorkers: 2,
    expect: { poll: { timeout: 20_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'truth-soak',
          environment: 'node',
          include: ['tests/soak/**/*.test.ts'],
          setupFiles: ['tests/monitor/setup.ts'],
          testTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser-soak',
          environment: 'node',
          include: ['tests/soak/**/*.spec.ts'],
          fileParallelism: false,
          testTimeout: 600_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
