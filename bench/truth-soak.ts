import { spawnSync } from 'node:child_process';

export interface SoakReport {
  readonly seeds: number;
  readonly steps: number;
  readonly passed: number;
  readonly failedSeeds: readonly number[];
  readonly seconds: number;
}

/** The engine-level truth test over more and longer seeds than `npm test` runs, through vitest (it needs MSW). */
export function runTruthSoak(first: number, seeds: number, steps: number): SoakReport {
  const started = Date.now();
  const run = spawnSync(
    'npx',
    ['vitest', 'run', '--project', 'monitor', 'tests/monitor/truth/seeds-1.test.ts', '--reporter', 'json'],
    {
      env: { ...process.env, TRUTH_SEED: String(first), TRUTH_SEEDS: String(seeds), TRUTH_STEPS: String(steps) },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const json = run.stdout.slice(run.stdout.indexOf('{'));
  const results = (
    JSON.parse(json) as { testResults: { assertionResults: { title: string; status: string }[] }[] }
  ).testResults.flatMap((file) => file.assertionResults);
  const failedSeeds = results
    .filter((result) => result.status !== 'passed')
    .map((result) => Number(/seed (\d+)/.exec(result.title)?.[1]));
  return {
    seeds: results.length,
    steps,
    passed: results.length - failedSeeds.length,
    failedSeeds,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}
