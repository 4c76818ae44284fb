import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    // Both cores (the default leaves one idle on a two-core machine); the relay's files run after, one at a time.
    maxWorkers: 2,
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
          // Each file starts databases, a devnet and relays of its own: one file at a time on two cores.
          fileParallelism: false,
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
