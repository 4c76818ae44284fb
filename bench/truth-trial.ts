import type { Page } from 'playwright-core';
import { principalsOf } from '../mocks/devnet/chain.ts';
import { startDevnet } from '../mocks/devnet/server.ts';
import { serveApp } from '../scripts/serve-app.ts';
import type { InboxEntry } from '../src/domain/alerts/inbox.ts';
import { alertLog, openWatching, sleep } from '../tests/e2e/support/alerts.ts';
import { launchBrowser } from '../tests/e2e/support/chromium.ts';

export interface TrialOptions {
  /** How long the demo chain runs with its accounts watched before the re-orgs. */
  readonly minutes: number;
  /** Scales every wait of the script after that (block time, settling, the outage): 1 in the full bench. */
  readonly pace: number;
}

export interface TrialReport {
  readonly minutes: number;
  readonly clockSkewMinutes: number;
  readonly alertsBefore: number;
  readonly reorgs: readonly {
    readonly depth: number;
    readonly orphanedTouchingWatched: number;
    readonly expectedReverted: number;
    readonly reverted: number;
    /** New alerts the chain explains: the new fork's transactions, and the demo activity's. */
    readonly otherNewAlerts: number;
    /** Anything else: what must be empty. */
    readonly falseAlerts: readonly string[];
    readonly historyGaps: number;
  }[];
  readonly outage: {
    readonly seconds: number;
    readonly transfers: number;
    readonly alertedOnce: number;
    readonly missing: number;
  };
}

/**
 * The new-user trial, scripted: the demo chain running as `npm start` runs it (a block every 5 s, demo
 * activity), its accounts watched for `minutes` in Chromium with the device clock 10 minutes ahead; then re-orgs
 * of depth 1 and 3 (the inbox must gain one "Reverted" per orphaned transaction per watched address it touched,
 * and nothing else, and no address may lose canonical history), then a 30 s node outage with transfers during it
 * (each must be alerted once, confirmed). A `pace` below 1 shortens the blocks, the waits and the outage alike.
 */
export async function runTruthTrial({ minutes, pace }: TrialOptions): Promise<TrialReport> {
  const blockMs = 5000 * pace;
  const devnet = await startDevnet({ port: 0, blockMs, activity: true });
  const app = await serveApp({ runtimeConfig: { devnet: { url: devnet.url } } });
  const browser = await launchBrowser();
  const chain = devnet.node.chain;
  try {
    const skewMs = 10 * 60_000;
    await browser.context.clock.install({ time: Date.now() + skewMs });
    const watched = [...chain.accounts.people, chain.accounts.treasury, chain.accounts.vault].map(
      ({ address, label }) => ({
        address,
        label,
      }),
    );
    const page = await openWatching(browser.context, app.url, watched);
    await sleep(minutes * 60_000);
    const alertsBefore = (await alertLog(page)).length;
    const reorgs = [];
    for (const depth of [1, 3]) {
      devnet.node.life.setBlockMs(null);
      // A transfer between watched accounts in the newest block, so that the re-org has something to take.
      const [from, to] = chain.accounts.people;
      await chain.submit(from!.address, { kind: 'stx', recipient: to!.address, amount: 4_242_000n, memo: 'reorg me' });
      chain.mine();
      await sleep(6000 * pace);
      const before = new Map((await alertLog(page)).map((entry) => [entry.id, entry]));
      const orphaned = [];
      for (let height = chain.tip.height - depth + 1; height <= chain.tip.height; height++)
        for (const txId of chain.block(height)?.txIds ?? []) {
          const entry = chain.tx(txId);
          if (entry) orphaned.push({ txId, principals: principalsOf(entry) });
        }
      chain.reorg(depth);
      await sleep(8000 * pace);
      const after = await alertLog(page);
      const touching = orphaned.flatMap(({ txId, principals }) =>
        principals.filter((p) => watched.some((w) => w.address === p)).map((p) => `testnet:${p}:${txId}`),
      );
      const expected = touching.filter((id) => before.has(id));
      const changed = after.filter((entry) => before.get(entry.id)?.phase !== entry.phase || !before.has(entry.id));
      const reverted = changed.filter((entry) => entry.phase === 'reverted' && expected.includes(entry.id)).length;
      // What else changed is true only when the chain says so: a transaction mined in a canonical block (the new
      // fork's, or told late), one the demo's activity sent meanwhile and still pending, or one dropped.
      const explained = (entry: InboxEntry): boolean => {
        // A stacking lock ends at a burn height, with no transaction.
        if (entry.phase === 'unlocked') return true;
        const tx = entry.txId ? chain.tx(entry.txId) : undefined;
        if (!tx || entry.phase === 'reverted') return false;
        if (tx.state.kind === 'pending') return entry.phase === 'pending';
        if (tx.state.kind === 'confirmed')
          return tx.state.block.canonical && entry.phase !== 'pending' && entry.phase !== 'dropped';
        return entry.phase === 'dropped';
      };
      const other = changed.filter((entry) => !(entry.phase === 'reverted' && expected.includes(entry.id)));
      reorgs.push({
        depth,
        orphanedTouchingWatched: touching.length,
        expectedReverted: expected.length,
        reverted,
        otherNewAlerts: other.filter(explained).length,
        falseAlerts: other.filter((entry) => !explained(entry)).map((entry) => `${entry.phase} ${entry.id}`),
        historyGaps: await historyGaps(page, app.url, watched, chain, pace),
      });
      devnet.node.life.setBlockMs(blockMs);
    }
    const outage = await outageTrial(page, devnet, chain, pace);
    return { minutes, clockSkewMinutes: skewMs / 60_000, alertsBefore, reorgs, outage };
  } finally {
    await browser.close();
    await app.close();
    await devnet.close();
  }
}

/** Transactions the chain lists among an address's newest 20 that its page does not show. */
async function historyGaps(
  page: Page,
  appUrl: string,
  watched: readonly { address: string }[],
  chain: Awaited<ReturnType<typeof startDevnet>>['node']['chain'],
  pace: number,
): Promise<number> {
  let gaps = 0;
  for (const { address } of watched) {
    const newest = chain.transactionsOf(address).slice(0, 20);
    // An address the chain has no transaction of has no row to wait for, and nothing to miss.
    if (newest.length === 0) continue;
    await page.goto(`${appUrl}/address/${address}`);
    await page.locator('.activity-row').first().waitFor({ timeout: 20_000 });
    await sleep(1000 * pace);
    const shown = new Set(
      await page.locator('.activity-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-tx'))),
    );
    gaps += newest.filter((entry) => !shown.has(entry.signed.txId)).length;
  }
  await page.goto(appUrl);
  return gaps;
}

async function outageTrial(
  page: Page,
  devnet: Awaited<ReturnType<typeof startDevnet>>,
  chain: Awaited<ReturnType<typeof startDevnet>>['node']['chain'],
  pace: number,
): Promise<TrialReport['outage']> {
  const [alice, bob] = chain.accounts.people;
  const outageMs = 30_000 * pace;
  devnet.node.outage(outageMs);
  const txIds: string[] = [];
  for (let i = 0; i < 6; i++) {
    const entry = await chain.submit(alice!.address, {
      kind: 'stx',
      recipient: bob!.address,
      amount: 1_000_000n + BigInt(i),
      memo: 'outage',
    });
    txIds.push(entry.signed.txId);
    await sleep(4000 * pace);
  }
  await sleep(8000 * pace);
  devnet.node.outage(0);
  await sleep(20_000 * pace);
  const log = await alertLog(page);
  const confirmed = (entry: InboxEntry | undefined) => entry?.phase === 'confirmed' && !entry.undelivered;
  const alertedOnce = txIds.filter((txId) =>
    confirmed(log.find((entry) => entry.id === `testnet:${bob!.address}:${txId}`)),
  ).length;
  return { seconds: outageMs / 1000, transfers: txIds.length, alertedOnce, missing: txIds.length - alertedOnce };
}
