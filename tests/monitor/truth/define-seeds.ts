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
    const required = { unlocks: 0, claims: 0, bondCards: 0, skipped: 0, seeds: 0 };
    for (let seed = from; seed < from + many; seed++) {
      it(`seed ${seed}: inbox, notifications and activity equal the ledger's truth`, async () => {
        const report = await runTruth(seed, steps);
        expect(report.problems, `seed ${seed} (repeat with TRUTH_SEED=${seed} TRUTH_SEEDS=1 npm run truth)`).toEqual(
          [],
        );
        required.unlocks += report.required.unlocks;
        required.claims += report.required.claims;
        required.bondCards += report.required.bondCards;
        required.skipped += report.required.skipped;
        required.seeds += 1;
      });
    }
    // A traffic mix that stopped producing them would leave the truth test proving nothing about them, quietly.
    if (many >= 10)
      it(`seeds ${from}-${from + many - 1} required unlocks at a cycle boundary, reward claims, bonds and skipped transactions to be told`, () => {
        expect(required.seeds, 'every seed ran').toBe(many);
        expect(required.unlocks, 'unlocks told at a cycle boundary').toBeGreaterThan(0);
        expect(required.claims, 'reward claims told').toBeGreaterThan(0);
        expect(required.bondCards, 'bond holders’ staking cards checked').toBeGreaterThan(0);
        expect(required.skipped, 'alerts of transactions the miners skipped').toBeGreaterThan(0);
        console.log(
          `[truth] seeds ${from}-${from + many - 1}: ${required.unlocks} unlocks and ${required.claims} claims required, ${required.bondCards} bond holders' cards checked, ${required.skipped} skipped transactions told`,
        );
      });
  });
}
