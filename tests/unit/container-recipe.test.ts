import { readFileSync } from 'node:fs';
import { matchesGlob } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Docker cannot run where the tests run, so the recipe is checked as text: what the build context leaves out (by
 * Docker's rule, a pattern that matches a folder leaves out everything under it) and what the final image runs.
 */
const ignore = readFileSync('.dockerignore', 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const dockerfile = readFileSync('Dockerfile', 'utf8');
/** The instructions of the image that runs (the last stage), without comments. */
const finalStage = dockerfile
  .slice(dockerfile.lastIndexOf('\nFROM '))
  .split('\n')
  .filter((line) => !line.startsWith('#'))
  .join('\n');
const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> };

const leftOut = (path: string): boolean => {
  const parts = path.split('/');
  return parts.some((_, index) => {
    const prefix = parts.slice(0, index + 1).join('/');
    return ignore.some((pattern) => !pattern.startsWith('!') && matchesGlob(prefix, pattern));
  });
};

describe('the container recipe', () => {
  it.each([
    'relay-data/vapid.json',
    'relay-data/pgdata/base/1/1259',
    'deploy/relay-data/vapid.json',
    'vapid.json',
    'backup/vapid-2026.json',
    '.git/config',
    'node_modules/tsx/package.json',
    'mocks/node_modules/x/index.js',
    '.env',
    '.env.production',
    'dist/index.html',
    'build/server/src/server/main.js',
    'tls/server.key',
  ])('never sends %s to the build', (path) => {
    expect(leftOut(path)).toBe(true);
  });

  it.each(['package.json', 'package-lock.json', 'src/server/main.ts', 'tsconfig.server.json', 'public/icon-192.png'])(
    'sends %s, which the build needs',
    (path) => {
      expect(leftOut(path)).toBe(false);
    },
  );

  it('installs production dependencies only in the image it runs, as a non-root user, data on a volume', () => {
    expect(finalStage).toMatch(/RUN npm ci --omit=dev/);
    expect(finalStage).not.toMatch(/COPY \. /);
    expect(finalStage).not.toMatch(/tsx/);
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage.indexOf('USER node')).toBeLessThan(finalStage.indexOf('CMD'));
    expect(finalStage).toMatch(/^VOLUME \/data$/m);
    expect(finalStage).toMatch(/RELAY_DATA_DIR=\/data/);
  });

  it('runs node itself as PID 1, on the compiled server the package names as its bin', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(finalStage)?.[1];
    expect(cmd).toBeDefined();
    const argv = JSON.parse(cmd!) as string[];
    expect(argv).toEqual(['node', packageJson.bin['stacks-watch']]);
    expect(dockerfile).not.toMatch(/^ENTRYPOINT/m);
  });
});
