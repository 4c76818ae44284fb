import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    // Both cores (the default leaves one idle on a two-core machine).
    maxWorkers: 2,
    // A poll waits for its condition, not for a time: a second is too little on a busy machine, and a poll that holds
    // ends as soon as it holds, so room costs nothing.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'devnet', environment: 'node', include: ['tests/devnet/**/*.test.ts'], testTimeout: 20_000 },
      },
      {
        extends: true,
        test: {
          name: 'monitor',
          environment: 'node',
          include: ['tests/monitor/**/*.test.ts'],
          setupFiles: ['tests/monitor/setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'relay',
          environment: 'node',
          include: ['tests/relay/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'jsdom',
          include: ['tests/integration/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/integration/setup.ts'],
          // Its waits poll for up to 10 s (setup.ts): a test gets room for a few of them on a busy machine.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
