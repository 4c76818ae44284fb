import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openWorld, type World } from './harness.ts';
import {
  control,
  countOnce,
  notificationsEverShown,
  openWatching,
  settledLog,
  transfersWithDrops,
  waitForLive,
} from './alerts.ts';

export const peopleOf = (world: World) =>
  world.devnet.node.chain.accounts.people.map(({ address, label }) => ({ address, label }));

/** Runs a scenario in its own devnet, app server and browser profile. */
export async function inWorld(scenario: (world: World) => Promise<void>): Promise<void> {
  const world = await openWorld({ blockMs: null });
  try {
    await scenario(world);
  } finally {
    await world.close();
  }
}

/** The fault run: transfers with drops, then every transfer alerted exactly once for sender and recipient. */
async function everyTransferOnce(
  world: World,
  page: () => Page,
  name: string,
  options: { transfers: number; drops: number; seed: number; during?: () => Promise<void> },
): Promise<void> {
  const load = await transfersWithDrops(world.devnet, peopleOf(world), options);
  const log = await settledLog(page(), load.expected, (txId) => {
    const state = world.devnet.node.chain.tx(txId)?.state;
    return `transfer ${load.txIds.indexOf(txId)}, ${state?.kind === 'confirmed' ? `block ${state.block.height}` : state?.kind}`;
  });
  const counts = countOnce(log, await notificationsEverShown(page()), load.expected);
  console.log(`[alerts] ${name}:`, JSON.stringify({ ...counts, unexpected: counts.unexpected.length }));
  expect(counts).toMatchObject({
    logEntries: load.expected.size,
    unexpected: [],
    missingFromLog: [],
    repeatedStates: [],
    notShown: [],
    shownTwice: [],
  });
}

/**
 * The four fault runs: `transfers` among 4 watched accounts with `drops` socket drops, in one tab, across two tabs
 * with the leading one closed half-way, across a reload, and with the node refusing a quarter of requests; every
 * transfer told exactly once for sender and recipient. `npm test` runs them at 120 transfers, `npm run soak` at 500.
 */
export function describeFaultRuns({ transfers, drops }: { transfers: number; drops: number }): void {
  describe(`alerts under faults: ${transfers} transfers among 4 watched accounts, ${drops} socket drops`, () => {
    it('one tab: every transfer told exactly once', () =>
      inWorld(async (world) => {
        const page = await openWatching(world.browser.context, world.server.url, peopleOf(world));
        await everyTransferOnce(world, () => page, 'one tab', { transfers, drops, seed: 1 });
      }));

    it('two tabs, the leading one closed half-way: the other takes over, nothing told twice or lost', () =>
      inWorld(async (world) => {
        const first = await openWatching(world.browser.context, world.server.url, peopleOf(world));
        const second = await world.browser.context.newPage();
        await second.goto(world.server.url);
        await waitForLive(second);
        await everyTransferOnce(world, () => second, 'two tabs', {
          transfers,
          drops,
          seed: 2,
          during: () => first.close(),
        });
      }));

    it('a reload half-way: nothing told twice or lost', () =>
      inWorld(async (world) => {
        const page = await openWatching(world.browser.context, world.server.url, peopleOf(world));
        await everyTransferOnce(world, () => page, 'reload', {
          transfers,
          drops,
          seed: 3,
          during: async () => {
            await page.reload();
            await waitForLive(page);
          },
        });
      }));

    it('the node answering a quarter of requests with 429: nothing lost', () =>
      inWorld(async (world) => {
        const page = await openWatching(world.browser.context, world.server.url, peopleOf(world));
        await control(world.devnet, '/devnet/faults', { rateLimit: { rate: 0.25, retryAfterSeconds: 1 } });
        let refused = 0;
        const stop = world.devnet.node.observe((_request, response) => {
          if (response.status === 429) refused += 1;
        });
        await everyTransferOnce(world, () => page, '429s', { transfers, drops, seed: 4 });
        stop();
        console.log(`[alerts] 429s: the node refused ${refused} requests`);
        expect(refused).toBeGreaterThan(0);
      }));
  });
}
