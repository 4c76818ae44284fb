import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    // Both cores (the default leaves one idle on a two-core machine).
    maxWorkers: 2,
    // A poll waits for its condition, not for a time: a second is too little on a busy machine, and a poll that holds
    // ends as soon as it holds, so room costs nothing.
    expect: { poll: { timeout: 30_000 } },
    // Ceilings for a hang, not verdicts on speed, the same for every test (no test sets its own): beside the browser
    // files and two busy loops a test runs at a third of its quiet pace or less, and the longest take a minute quiet.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    projects: [
      {
        extends: true,
        // Pure code, no global state: the files of a worker share their modules (half the CPU of one process each).
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'devnet',
          environment: 'node',
          include: ['tests/devnet/**/*.test.ts'],
          // Each file starts its own devnets on ports of their own: the files of a worker share their modules.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'monitor',
          environment: 'node',
          include: ['tests/monitor/**/*.test.ts'],
          setupFiles: ['tests/monitor/setup.ts'],
          // The files of a worker share their modules (a third less CPU): each file's MSW server is its own, closed
          // after it, and every IndexedDB database a test opens has a name of its own (harness.ts counts them).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'relay',
          environment: 'node',
          include: ['tests/relay/**/*.test.ts'],
          // Each file starts databases, a devnet and relays of its own: one file at a time, a stage of its own in
          // npm test. (Two at a time, with two busy loops beside the suite, ops.test's health test outlived the 300 s
          // ceiling: its three waits for the relay to notice a node away and back each grew to minutes.)
          fileParallelism: false,
          // One process for the files, one after another: each file closes what it started, and a file's module
          // imports cost more than many of its tests (the stage took 548 s isolated, 248 s not, on a busy machine).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'jsdom',
          include: ['tests/integration/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/integration/setup.ts'],
        },
      },
    ],
  },
});
