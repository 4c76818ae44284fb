import { c32address } from 'c32check';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, screenshot, screenshotsEverywhere } from './support/layout.ts';

const BUILT_SW = readFileSync(new URL('../../dist/sw.js', import.meta.url), 'utf8');
const SIZES = [
  { width: 320, height: 700 },
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;
/** A mainnet address nobody follows here: with it the testnet rows carry a "Testnet" pill. */
const MAINNET = c32address(22, 'c0ffee'.padEnd(40, '0'));
const LONG_LABEL = 'Treasury cold storage';

const harness = serveAppWithDevnetForFile({ blockMs: null, hasTouch: true, shell: true });
let page: Page;

const people = () => harness.devnet.node.chain.accounts.people;
const row = (name: string) => page.locator('.watch-row').filter({ has: page.getByText(name, { exact: true }) });
const toastMessage = (title: string) => ({
  type: 'TOAST',
  content: { title, body: '', tag: title, renotify: false, data: { ids: [title], path: '/inbox', summary: null } },
});

/**
 * Unfolds a row's actions from the keyboard, pressed again only while they are folded. A tap is aimed at where the
 * button was: while the rows still move (balances and pending marks arriving), on a loaded machine it once unfolded
 * nothing and the test waited for "Remove" for good.
 */
async function unfold(name: string): Promise<void> {
  const more = row(name).getByRole('button', { name: `Actions for ${name}` });
  const remove = row(name).getByRole('button', { name: `Remove ${name}` });
  await expect
    .poll(async () => {
      if ((await more.getAttribute('aria-expanded')) !== 'true') {
        await more.focus();
        await page.keyboard.press('Enter');
      }
      return remove.isVisible();
    })
    .toBe(true);
}

/** Whether what the user sees at the middle of `selector` is that element (nothing floats over it). */
const reachable = (selector: string) =>
  page.evaluate((selector) => {
    const element = document.querySelector(selector);
    if (!element) return `${selector} is not there`;
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return top && element.contains(top) ? 'reachable' : `covered by ${top?.className ?? 'nothing'}`;
  }, selector);

describe('the watch list on a phone', () => {
  it('sets up: the demo accounts, Alice added by her BNS name with a long label, a mainnet address, a pending transfer', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    const [alice, bob, carol] = people();
    await control(harness.devnet, '/devnet/name', { name: 'alice.btc', owner: alice!.address });
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await unfold('Alice');
    await row('Alice').getByRole('button', { name: 'Remove Alice' }).click();
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    // Re-added by her name, the way a user who knows it would.
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill('alice.btc');
    await page.getByLabel('Label').fill(LONG_LABEL);
    await page.getByRole('button', { name: 'Watch' }).click();
    await row(LONG_LABEL).waitFor();
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(MAINNET);
    await page.getByRole('button', { name: 'Watch' }).click();
    await page
      .locator('.watch-row')
      .nth(people().length + 2)
      .waitFor();
    // She stakes too: her row carries the most pills a row can (network, pending, staking, time).
    await control(harness.devnet, '/devnet/stake', { staker: alice!.address, amount: '60000000000', cycles: 2 });
    await control(harness.devnet, '/devnet/mine');
    await row(LONG_LABEL).locator('.badge-staking').waitFor();
    await control(harness.devnet, '/devnet/transfer', {
      sender: bob!.address,
      recipient: alice!.address,
      amount: '12850000',
    });
    await control(harness.devnet, '/devnet/transfer', {
      sender: alice!.address,
      recipient: carol!.address,
      amount: '3000000',
    });
    await row(LONG_LABEL).getByText('2 pending').waitFor();
  });

  it('stacks the update bar, an alert toast and the Undo at the bottom: each can be pressed, none covers another', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await unfold('Dave');
    await row('Dave').getByRole('button', { name: 'Remove Dave' }).click();
    const undo = page.locator('.undo-bar');
    await undo.getByText('Removed “Dave”.').waitFor();
    // An alert arrives as the service worker hands one over, then a new version of the app.
    await page.evaluate(
      (message) => navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: message })),
      toastMessage('Received 5.00 STX'),
    );
    await page.locator('.toast').waitFor();
    harness.server.override('/sw.js', `${BUILT_SW}\n// a new release\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const update = page.locator('.update-prompt');
    await update.getByText('A new version is ready.').waitFor();
    await screenshot(page, 'bottom-stack-390x844-light');
    const boxes = await Promise.all([update, page.locator('.toast'), undo].map((bar) => bar.boundingBox()));
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(a!.y + a!.height <= b!.y || b!.y + b!.height <= a!.y, JSON.stringify([a, b])).toBe(true);
    for (const selector of ['.undo-bar button', '.toast button', '.update-prompt .primary'])
      expect(await reachable(selector), selector).toBe('reachable');
    // The update can wait: "Later" takes the bar away, and the Undo still works.
    await update.getByRole('button', { name: 'Later' }).click();
    await update.waitFor({ state: 'detached' });
    await undo.getByRole('button', { name: 'Undo' }).click();
    await row('Dave').waitFor();
    expect(await undo.count()).toBe(0);
    await page
      .locator('.toast')
      .getByRole('button', { name: /^Dismiss/ })
      .click();
  });

  it('closes the connection panel on Escape, on a tap outside it (that tap does nothing else) and on another screen', async () => {
    const dot = page.locator('.connection-indicator');
    const panel = page.locator('.connection-details');
    await dot.click();
    await panel.waitFor();
    await screenshotsEverywhere(page, 'connection-panel');
    await panel.waitFor();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    expect(await dot.evaluate((button) => button === document.activeElement)).toBe(true);
    await dot.click();
    await panel.waitFor();
    // A tap on the panel itself keeps it; one on the list closes it, and only that: the row under it stays shut.
    await panel.click();
    expect(await panel.isVisible()).toBe(true);
    const list = page.url();
    const panelBox = (await panel.boundingBox())!;
    const rowBoxes = await page.locator('.watch-row').evaluateAll((rows) =>
      rows.map((item) => {
        const { x, y, width, height } = item.getBoundingClientRect();
        return { x, y, width, height };
      }),
    );
    const under = rowBoxes.find((box) => box.y > panelBox.y + panelBox.height && box.y + box.height < 844)!;
    await page.touchscreen.tap(under.x + under.width / 3, under.y + under.height / 2);
    await panel.waitFor({ state: 'hidden' });
    await screenshotsEverywhere(page, 'connection-panel-tapped-away');
    expect(page.url()).toBe(list);
    // With a mouse as well.
    await dot.click();
    await panel.waitFor();
    await page.mouse.click(under.x + under.width / 3, under.y + under.height / 2);
    await panel.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(list);
    await dot.click();
    await panel.waitFor();
    await page.getByRole('link', { name: 'Settings' }).click();
    await panel.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
  });

  it('shows what is on its way in and out, as the devnet’s mempool has it, on the row and the balance card', async () => {
    const alice = people()[0]!.address;
    let incoming = 0n;
    let outgoing = 0n;
    for (const { signed } of harness.devnet.node.chain.pendingOf(alice)) {
      if (signed.intent.kind !== 'stx') throw new Error(`unexpected pending ${signed.intent.kind}`);
      if (signed.intent.recipient === alice) incoming += signed.intent.amount;
      if (signed.sender === alice) outgoing += signed.intent.amount + signed.fee;
    }
    const expected = [`+${stx(incoming)} incoming`, `−${stx(outgoing)} outgoing`];
    expect(await row(LONG_LABEL).locator('.stx-moving').allTextContents()).toEqual(expected);
    await row(LONG_LABEL).getByRole('link').click();
    await page.locator('.balance-card .stx-moving').first().waitFor();
    expect(await page.locator('.balance-card .stx-moving').allTextContents()).toEqual(expected);
    for (const size of SIZES)
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(size);
        await screenshot(page, `pending-balance-${size.width}-${scheme}`);
      }
    // Beside the page on a wide screen, the list names it in full.
    const navName = page
      .getByRole('navigation', { name: 'Watch list' })
      .locator('.watch-nav-name', { hasText: 'Treasury cold' });
    expect(await navName.evaluate((name) => name.scrollWidth <= name.clientWidth && name.textContent)).toBe(LONG_LABEL);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
  });

  for (const size of SIZES)
    for (const scheme of ['light', 'dark'] as const)
      it(`keeps every name whole, the BNS name shown, the ⋯ inside its card at ${size.width} px, ${scheme}`, async () => {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(size);
        await row(LONG_LABEL).waitFor();
        const problems = await page.locator('.watch-row').evaluateAll((rows) =>
          rows.flatMap((item) => {
            const box = item.getBoundingClientRect();
            const label = item.querySelector<HTMLElement>('.watch-label')!;
            const found: string[] = [];
            const name = label.textContent;
            const inside = (element: Element | null, what: string) => {
              if (!element) return;
              const part = element.getBoundingClientRect();
              if (part.left < box.left - 0.5 || part.right > box.right + 0.5)
                found.push(
                  `${name}: ${what} runs ${Math.round(Math.max(box.left - part.left, part.right - box.right))} px out of its card`,
                );
            };
            inside(item.querySelector('.row-more'), 'the ⋯ button');
            inside(item.querySelector('.stx-available'), 'the balance');
            // Every figure and pill inside the card, and none under the ⋯ (the card clips what runs out of it).
            const more = item.querySelector('.row-more')!.getBoundingClientRect();
            for (const part of item.querySelectorAll('.watch-figures > *, .stx-figures > *, .watch-when > *')) {
              const what = `"${part.textContent?.trim()}"`;
              const own = part.getBoundingClientRect();
              // Not shown at this width (the phone's own network pill on a desktop).
              if (own.width === 0) continue;
              inside(part, what);
              const overlaps =
                own.right > more.left + 0.5 &&
                own.left < more.right - 0.5 &&
                own.bottom > more.top + 0.5 &&
                own.top < more.bottom - 0.5;
              if (overlaps) found.push(`${name}: ${what} runs under the ⋯ button`);
            }
            if (label.scrollWidth > label.clientWidth + 1) found.push(`${name}: the name is cut`);
            const bns = item.querySelector<HTMLElement>('.bns-name');
            if (bns) {
              inside(bns, 'the BNS name');
              const parent = bns.parentElement!.getBoundingClientRect();
              const own = bns.getBoundingClientRect();
              if (own.width === 0 || own.right > parent.right + 0.5 || own.bottom > parent.bottom + 0.5)
                found.push(`${name}: the BNS name is hidden`);
            }
            return found;
          }),
        );
        expect(problems).toEqual([]);
        expect((await layoutReport(page)).overflow).toBe(0);
        await page.locator('.watch-rows').scrollIntoViewIfNeeded();
        await screenshot(page, `rows-${size.width}x${size.height}-${scheme}`, { fullPage: true });
      });

  for (const scheme of ['light', 'dark'] as const)
    it(`gives "Testnet" and "pending" colours of their own, each readable (AA), ${scheme}`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 390, height: 844 });
      const pills = await page.evaluate(() => {
        const style = (selector: string) => {
          const element = document.querySelector(selector)!;
          const { color, backgroundColor } = getComputedStyle(element);
          return { color, backgroundColor };
        };
        return { testnet: style('.watch-row .badge-testnet'), pending: style('.watch-row .badge-pending') };
      });
      expect(pills.testnet.backgroundColor).not.toBe(pills.pending.backgroundColor);
      expect(pills.testnet.color).not.toBe(pills.pending.color);
      for (const pill of Object.values(pills))
        expect(contrast(pill.color, pill.backgroundColor), JSON.stringify(pill)).toBeGreaterThanOrEqual(4.5);
    });
});

/** Micro-STX as the app shows them: at least two decimals, every further one the amount has. */
function stx(micro: bigint): string {
  const whole = (micro / 1_000_000n).toLocaleString('en-US');
  const fraction = (micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction} STX`;
}

/** WCAG contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, bl] = colour
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map(Number)
      .map((channel) => {
        const c = channel / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}
