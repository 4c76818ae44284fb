import { defineConfig } from 'vitest/config';

/** Browser tests: the built app in the system Chromium. `npm run test:browser` builds first. */
export default defineConfig({
  test: {
    name: 'browser',
    environment: 'node',
    include: ['tests/e2e/**/*.spec.ts'],
    // Three files at a time: each has its own devnet, app server and Chromium profile on ports of its own, and a file
    // spends most of its time waiting on them (half a core on average), not computing. Two at a time left the cores
    // a third idle on a quiet machine (the stage took 873 s; four at a time, 595 s, but beside two busy loops a
    // service worker once did not take control of a page within 90 s).
    maxWorkers: 3,
    // A poll waits for its condition, not for a time: its ceiling is Playwright's (90 s, support/chromium.ts), and no
    // test sets a shorter one (20 s polls failed at a load of 16: the condition came, later).
    expect: { poll: { timeout: 90_000 } },
    // Ceilings for a hang, not verdicts on speed, the same for every test (no test sets its own): loaded, a file runs at a
    // third of its quiet pace or less, and the longest tests take a minute quiet.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
