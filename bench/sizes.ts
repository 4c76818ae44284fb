import type { DevnetLoadOptions } from './devnet-load.ts';
import type { RelayOptions } from './relay.ts';
import type { ResumeOptions } from './resume.ts';
import type { TrialOptions } from './truth-trial.ts';

/**
 * How big and how long each section runs. The full sizes give the figures the README quotes; `--quick` runs every
 * section through the same code with tiny sizes and short waits, a few seconds each, so that `npm test` notices a
 * section that no longer runs. Its figures mean nothing and go to their own report.
 */
export interface BenchSizes {
  readonly lighthouseRuns: number;
  readonly largeList: { readonly entries: number; readonly runs: number };
  readonly devnetLoad: DevnetLoadOptions;
  readonly liveDataRuns: number;
  /** Watched addresses: the devnet's five senders and strangers, each run's recipient one of the strangers. */
  readonly alerts: { readonly addresses: number; readonly runs: number };
  readonly budgetedSync: { readonly addresses: number; readonly budgetPerMinute: number };
  readonly resume: { readonly quiet: ResumeOptions; readonly busy: ResumeOptions };
  readonly truth: {
    readonly soak: { readonly firstSeed: number; readonly seeds: number; readonly steps: number };
    readonly trial: TrialOptions;
  };
  readonly relay: RelayOptions;
  readonly history: { readonly transactions: number; readonly scrollRows: number; readonly scrollFrames: number };
}

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const FULL_SIZES: BenchSizes = {
  lighthouseRuns: env('LIGHTHOUSE_RUNS', 5),
  largeList: { entries: 1000, runs: 7 },
  devnetLoad: { addresses: 1000, txPerSecond: 100, seconds: 15, connections: 4 },
  liveDataRuns: 30,
  alerts: { addresses: 100, runs: 40 },
  budgetedSync: { addresses: 1000, budgetPerMinute: 500 },
  resume: {
    quiet: { addresses: 100, budgetPerMinute: 24, touched: 3, background: { transactions: 0, blocks: 1 } },
    // About ten minutes of a busy chain: 300 transactions in 60 blocks, a third of them token transfers.
    busy: { addresses: 100, budgetPerMinute: 24, touched: 3, background: { transactions: 300, blocks: 60 } },
  },
  truth: {
    soak: { firstSeed: 1001, seeds: 100, steps: 120 },
    trial: { minutes: env('TRIAL_MINUTES', 10), pace: 1 },
  },
  relay: {
    devices: env('RELAY_BENCH_DEVICES', 1000),
    principalsPerDevice: 10,
    txPerSecond: env('RELAY_BENCH_TPS', 20),
    seconds: env('RELAY_BENCH_SECONDS', 20),
    registering: env('RELAY_BENCH_REGISTERING', 1),
    pace: 1,
  },
  history: { transactions: 5000, scrollRows: 10_000, scrollFrames: 300 },
};

export const QUICK_SIZES: BenchSizes = {
  lighthouseRuns: 1,
  largeList: { entries: 20, runs: 2 },
  devnetLoad: { addresses: 20, txPerSecond: 10, seconds: 1, connections: 2 },
  liveDataRuns: 2,
  alerts: { addresses: 7, runs: 2 },
  budgetedSync: { addresses: 20, budgetPerMinute: 500 },
  resume: {
    quiet: { addresses: 10, budgetPerMinute: 24, touched: 2, background: { transactions: 0, blocks: 1 } },
    busy: { addresses: 10, budgetPerMinute: 24, touched: 2, background: { transactions: 6, blocks: 2 } },
  },
  truth: {
    soak: { firstSeed: 1001, seeds: 2, steps: 20 },
    trial: { minutes: 0.05, pace: 0.1 },
  },
  relay: { devices: 4, principalsPerDevice: 2, txPerSecond: 4, seconds: 1, pace: 0.2 },
  history: { transactions: 60, scrollRows: 200, scrollFrames: 20 },
};
