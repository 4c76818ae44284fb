import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/support/longest-first.ts';

export default defineConfig({
  plugins: [react()],
  test: {
    // Both cores (the default leaves one idle on a two-core machine).
    maxWorkers: 2,
    // The relay's long files first (tests/support/longest-first.ts).
    sequence: { sequencer: LongestFirst },
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
          // Each file starts databases, a devnet and relays of its own on ports of its own: two files at a time (the
          // maxWorkers above), a stage of its own in npm test. A relay file waits on its relays, devnet and push
          // stand-in most of its time: one at a time, the stage took 849 s of a quiet 884 s run with the cores not
          // full; two at a time, 525 s of a quiet 558 s run. (An earlier try of two at a time was taken back when
          // ops.test's health test outlived the 300 s ceiling beside two busy loops, its waits for the relay to
          // notice a node away growing to minutes; since the chain follower, ops.test has the relay poll the newest
          // blocks every second while its feed is down, and it passed in both busy runs of two at a time, 100-127 s.)
          fileParallelism: true,
          // Each worker runs its files one after another in one process: each file closes what it started, and a
          // file's module imports cost more than many of its tests (548 s isolated, 248 s not, on a busy machine).
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
