import { describe, expect, it } from 'vitest';
import { serveDevnetThroughMsw } from '../harness.ts';
import { runTruth } from './scenario.ts';

/**
 * Seeds `first` to `first + count - 1` of the engine-level truth test, in one file (vitest runs files in
 * parallel). `TRUTH_SEED` and `TRUTH_SEEDS` run other seeds (`TRUTH_SEED=137 TRUTH_SEEDS=1 npm run truth`),
 * `TRUTH_STEPS` longer runs.
 */
export function truthSeeds(first: number, count: number): void {
  serveDevnetThroughMsw();
  const from = Number(process.env['TRUTH_SEED'] ?? first);
  const many = Number(process.env['TRUTH_SEEDS'] ?? count);
  const steps = Number(process.env['TRUTH_STEPS'] ?? 36);
  describe('alerts tell the truth (engine level, the devnet ledger as oracle)', () => {
    for (let seed = from; seed < from + many; seed++) {
      it(`seed ${seed}: inbox, notifications and activity equal the ledger's truth`, async () => {
        const report = await runTruth(seed, steps);
        expect(report.problems, `seed ${seed} (repeat with TRUTH_SEED=${seed} TRUTH_SEEDS=1 npm run truth)`).toEqual(
          [],
        );
      }, 120_000);
    }
  });
}
