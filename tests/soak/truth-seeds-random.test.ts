import { truthSeeds } from '../monitor/truth/define-seeds.ts';

// Beyond the fixed seeds 1-200: 50 seeds from a start drawn at random each soak, printed with every failure
// (`TRUTH_SEED=<start> TRUTH_SEEDS=1 npm run truth` repeats one).
const start = 1000 + Math.floor(Math.random() * 1_000_000);
console.log(`[truth] soak: seeds ${start}-${start + 49}, drawn at random for this run`);
truthSeeds(start, 50);
