/**
 * A staker's row in the watch list: its figures (balance, locked, what is on its way) stack tightly under one another
 * whatever its pills do beside them; on a desktop "1 pending", "Staking" and the time take two lines there.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { howShown, layoutReport, LOOK_SIZES, screenshotsEverywhere } from './support/layout.ts';

/** At most this much space between one figure's line and the next (sub-pixel rounding, no blank line). */
const TIGHT_PX = 2;

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
let page: Page;

const row = (name: string) => page.locator('.watch-row').filter({ has: page.getByText(name, { exact: true }) });

/** Each row's figures top to bottom, with the space above each, and how many lines its pills take. */
const figureLines = () =>
  page.locator('.watch-row').evaluateAll((rows) =>
    rows.map((item) => {
      const name = item.querySelector('.watch-label')!.textContent!;
      const figures = [...item.querySelectorAll<HTMLElement>('.stx-available, .stx-locked, .stx-moving')].map(
        (figure) => ({ text: figure.textContent!, box: figure.getBoundingClientRect() }),
      );
      const gaps = figures.slice(1).map((figure, i) => ({
        between: `${figures[i]!.text} / ${figure.text}`,
        gap: figure.box.top - figures[i]!.box.bottom,
      }));
      const pills = [...item.querySelectorAll('.watch-when > *')].map((pill) => pill.getBoundingClientRect());
      // The pills of one line share their middle (they are centred on it).
      const middles = pills.filter((pill) => pill.width > 0).map((pill) => Math.round(pill.top + pill.height / 2));
      const pillLines = new Set(middles).size;
      return { name, gaps, pillLines };
    }),
  );

describe('a staker’s row', () => {
  it('sets up: the demo accounts, Alice staking with a transfer on its way to her', async () => {
    page = await harness.browser.context.newPage();
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    const [alice, bob] = harness.devnet.node.chain.accounts.people;
    await control(harness.devnet, '/devnet/stake', { staker: alice!.address, amount: '60000000000', cycles: 2 });
    await control(harness.devnet, '/devnet/mine');
    await row('Alice').locator('.badge-staking').waitFor();
    await row('Alice').locator('.stx-locked').waitFor();
    await control(harness.devnet, '/devnet/transfer', {
      sender: bob!.address,
      recipient: alice!.address,
      amount: '12850000',
    });
    await row('Alice').getByText('1 pending').waitFor();
  });

  for (const size of LOOK_SIZES)
    it(`stacks the figures with no blank line between them at ${size.width} px`, async () => {
      await page.setViewportSize(size);
      const lines = await figureLines();
      const alice = lines.find((line) => line.name === 'Alice')!;
      expect(alice.gaps.map((gap) => gap.between)).toEqual([
        expect.stringMatching(/^[\d,.]+ STX \/ 60,000\.00 STX locked$/),
        '60,000.00 STX locked / +12.85 STX incoming',
      ]);
      // The case of the walkthrough: on a desktop her pills take two lines beside the figures.
      if (size.width === 1366) expect(alice.pillLines).toBe(2);
      for (const line of lines)
        for (const { between, gap } of line.gaps) expect(gap, `${line.name}: ${between}`).toBeLessThanOrEqual(TIGHT_PX);
    });

  it('leaves screenshots of the list, each showing all of Alice’s row and her locked line, nothing over them and nothing wider than the screen', async () => {
    const alice = row('Alice');
    const inFull = { sticksOut: { top: 0, right: 0, bottom: 0, left: 0 }, coveredBy: null };
    await screenshotsEverywhere(page, 'staker-row', {
      show: alice,
      check: async ({ size, scheme }) => {
        const look = `${size.width}×${size.height} ${scheme}`;
        expect((await layoutReport(page)).overflow, `${look}: sideways scrolling`).toBe(0);
        expect(await howShown(alice), `${look}: Alice’s row`).toEqual(inFull);
        const locked = alice.locator('.stx-locked');
        expect(await locked.textContent(), look).toBe('60,000.00 STX locked');
        expect(await howShown(locked), `${look}: her locked line`).toEqual(inFull);
      },
    });
  });
});
