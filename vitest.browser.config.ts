import { defineConfig } from 'vitest/config';

/** Browser tests: the built app in the system Chromium. `npm run test:browser` builds first. */
export default defineConfig({
  test: {
    name: 'browser',
    environment: 'node',
    include: ['tests/e2e/**/*.spec.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
