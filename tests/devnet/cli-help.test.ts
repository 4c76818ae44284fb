import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const devnet = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'mocks/devnet/cli.ts', ...args], { encoding: 'utf8' });

describe('npm run devnet', () => {
  it('prints its options on --help and exits 0, starting nothing', () => {
    const run = devnet('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/--port N/);
    expect(run.stdout).toMatch(/--block-ms N/);
  });

  it('refuses an unknown option saying which, with the options it takes', () => {
    const run = devnet('--bogus');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/devnet: Unknown option '--bogus'/);
    expect(run.stderr).toMatch(/--quiet-chain/);
  });
});
