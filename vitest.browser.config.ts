import { defineConfig } from 'vitest/config';

/** Browser tests: the built app in the system Chromium. `npm run test:browser` builds first. */
export default defineConfig({
  test: {
    name: 'browser',
    environment: 'node',
    include: ['tests/e2e/**/*.spec.ts'],
    // Two files at a time: each has its own devnet, app server and Chromium profile on ports of its own, and a file
    // spends most of its time waiting on them (half a core on average), not computing.
    maxWorkers: 2,
    // A poll waits for its condition, not for a time: a second is too little on a busy machine (the default).
    expect: { poll: { timeout: 20_000 } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
