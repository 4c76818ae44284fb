import { defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/support/longest-first.ts';

/** Browser tests: the built app in the system Chromium. `npm run test:browser` builds first. */
export default defineConfig({
  test: {
    name: 'browser',
    environment: 'node',
    include: ['tests/e2e/**/*.spec.ts'],
    // Three files at a time: each has its own devnet, app server and Chromium profile on ports of its own. Three keep
    // two cores full (99% busy, sampled through a quiet run; Chromium's processes took three fifths of it, the node
    // processes the rest), and four at a time took longer (903 s against 778 s). Alone, one after another, the files
    // took 1,202 CPU seconds of the machine, each with its own vitest start (layout.spec: 72 of its 80 were
    // Chromium's, 46 its renderer's); the stage took 591 s of a quiet run with both cores full.
    maxWorkers: 3,
    // Each worker runs its files one after another in one process (each file closes the browser, servers and devnet it
    // started), so that a file does not start a process and import its modules afresh: six small files one at a time
    // took 38 CPU seconds of the machine instead of 45.
    isolate: false,
    // The long files first, so that the stage does not end on one alone (tests/support/longest-first.ts): a quiet run
    // took 778 s, against 868 s in vitest's own order, where a 110 s file small on disk started last.
    sequence: { sequencer: LongestFirst },
    // A poll waits for its condition, not for a time: its ceiling is Playwright's (90 s, support/chromium.ts), and no
    // test sets a shorter one (20 s polls failed at a load of 16: the condition came, later).
    expect: { poll: { timeout: 90_000 } },
    // Ceilings for a hang, not verdicts on speed, the same for every test (no test sets its own): loaded, a file runs at a
    // third of its quiet pace or less, and the longest tests take a minute quiet.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
