import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Every bench section, run as `npm run bench -- --quick` runs it (tiny sizes, short waits, its own report), so that a
 * section that no longer runs (a label the app renamed, a page that moved) fails here rather than on the day someone
 * wants figures. Nothing here looks at the figures: the bench's only verdicts are its exit code (an error, or the
 * bundle over its size budget).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * A guard against a hang, not a verdict on speed: the quick bench's sections take a minute or two, but beside two
 * other browser files the whole run took 313 s on a two-core machine (more than half the 6 minutes this was).
 */
const GIVE_UP_MS = 15 * 60_000;

interface Finished {
  readonly code: number | null;
  readonly output: string;
}

/** The quick bench in its own process group, so that giving up also stops the browsers and servers it started. */
function runQuickBench(): Promise<Finished> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.mts', '--quick'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const giveUp = setTimeout(() => {
    output += `\n(gave up after ${GIVE_UP_MS / 60_000} minutes)\n`;
    process.kill(-child.pid!, 'SIGKILL');
  }, GIVE_UP_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(giveUp);
      resolve({ code, output });
    });
  });
}

describe('the bench', () => {
  it('runs every section in its quick mode', { timeout: GIVE_UP_MS + 30_000 }, async () => {
    const { code, output } = await runQuickBench();
    expect(code, `npm run bench -- --quick failed:\n${output}`).toBe(0);
  });
});
