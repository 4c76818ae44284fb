import { describeFaultRuns } from '../e2e/support/fault-runs.ts';

// The fault runs of tests/e2e/alerts-faults.spec.ts at the scale they ran at in npm test before it was sized to its
// budget: 500 transfers and 20 socket drops each.
describeFaultRuns({ transfers: 500, drops: 20 });
