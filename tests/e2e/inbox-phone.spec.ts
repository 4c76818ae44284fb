import { c32address } from 'c32check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, waitForServiceWorkerControl } from './support/app-page.ts';
import { alertLog, control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, LOOK_SIZES, screenshot, screenshotsEverywhere } from './support/layout.ts';

/**
 * The inbox on a phone reads as a phone's notification list (issue 24): one list a day, each row naming its
 * address, no heading repeated between the rows of a day; grouping by address keeps its headed, foldable groups.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LONG_LABEL = 'Walker household savings';
/** A mainnet address nobody follows here: with it watched the testnet rows carry a "Testnet" mark. */
const MAINNET = c32address(22, 'c0ffee'.padEnd(40, '0'));
/**
 * Whole rows a 390×844 screen shows of a busy inbox where the addresses take turns. Headed runs of one address
 * showed 3 (each alert its own card and heading); one list a day shows 6.
 */
const ROWS_ABOVE_THE_FOLD = 6;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;

const people = () => harness.devnet.node.chain.accounts.people;
const rows = () => page.locator('.inbox-entry');

/** The rows whose whole box is on the screen, the page scrolled to its top. */
const rowsAboveTheFold = () =>
  page.evaluate(() => {
    window.scrollTo(0, 0);
    return [...document.querySelectorAll('.inbox-entry')].filter((row) => {
      const box = row.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    }).length;
  });

/** The element's name as Chromium gives it to a screen reader. */
async function accessibleName(element: Locator): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  await element.evaluate((node) => node.setAttribute('data-named', ''));
  try {
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-named]' });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    return String(nodes[0]?.name?.value ?? '');
  } finally {
    await element.evaluate((node) => node.removeAttribute('data-named'));
    await cdp.detach();
  }
}

describe('the inbox on a phone: one list a day, each row naming its address (issue 24)', () => {
  it('sets up: Alice, Bob under a long label, Carol added by her BNS name; Dave (not watched) pays them by turns', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(LOOK_SIZES[1]);
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    const [alice, bob, carol, dave] = people();
    for (const [typed, label] of [
      [alice!.address, 'Alice'],
      [bob!.address, LONG_LABEL],
      ['carol.btc', ''],
    ] as const) {
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(typed);
      await page.getByLabel('Label').fill(label);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page
        .locator('.watch-row')
        .filter({ hasText: label || typed })
        .waitFor();
    }
    await waitForLive(page);
    // The addresses take turns, as a busy inbox has them; Alice twice in a row once, and one transfer between two
    // watched addresses (one row). Mined one by one: each alert its own moment.
    const turns = [alice, bob, carol, alice, alice, bob, carol, 'pair', bob, alice, carol, bob, alice, carol] as const;
    for (const [index, turn] of turns.entries()) {
      const [sender, recipient] = turn === 'pair' ? [alice!, bob!] : [dave!, turn!];
      const { tx_id } = await control(harness.devnet, '/devnet/transfer', {
        sender: sender.address,
        recipient: recipient.address,
        amount: String(1_250_000 * (index + 1)),
      });
      await control(harness.devnet, '/devnet/mine');
      const id = `testnet:${recipient.address}:${String(tx_id)}`;
      await expect.poll(async () => (await alertLog(page)).find((entry) => entry.id === id)?.phase).toBe('confirmed');
    }
    await page.getByRole('link', { name: /^Inbox/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await expect.poll(() => rows().count()).toBe(turns.length);
  });

  it(`shows at least ${ROWS_ABOVE_THE_FOLD} whole rows at 390×844, all of a day in one list with no heading between`, async () => {
    await page.setViewportSize(LOOK_SIZES[1]);
    const shown = await rowsAboveTheFold();
    expect(shown).toBeGreaterThanOrEqual(ROWS_ABOVE_THE_FOLD);
    const days = await page.locator('.inbox-day').evaluateAll((days) =>
      days.map((day) => ({
        lists: day.querySelectorAll('ol').length,
        headings: [...day.querySelectorAll('h3, h4')].map((heading) => heading.textContent),
        rows: day.querySelectorAll('.inbox-entry').length,
        // Every row of the day follows the one before it directly: nothing stands between them.
        together: [...day.querySelectorAll('.inbox-entry')].every(
          (row, index, all) => index === 0 || row.previousElementSibling === all[index - 1],
        ),
      })),
    );
    expect(days).toEqual([{ lists: 1, headings: [], rows: await rows().count(), together: true }]);
  });

  it('names in each row its address (label, else BNS name), what happened and when, for the eye and the ear', async () => {
    const carol = people()[2]!.address;
    const first = rows().first();
    // The newest: Dave paid Carol, who has no label: she is named by the BNS name she was added by.
    expect(await first.locator('.inbox-who').textContent()).toBe('carol.btc');
    expect(await accessibleName(first.getByRole('link'))).toMatch(
      /^Unread: carol\.btc: Received 17\.50 STX, (just now|\d+ min ago)$/,
    );
    expect(await first.getByRole('link').getAttribute('href')).toContain(`/address/${carol}`);
    const bob = rows().filter({ hasText: 'Received 15.00 STX' });
    expect(await bob.locator('.inbox-who').textContent()).toBe(LONG_LABEL);
    // The transfer between two watched addresses names both in its words: no name line above them.
    const pair = rows().filter({ hasText: `Alice → ${LONG_LABEL}` });
    expect(await pair.count()).toBe(1);
    expect(await pair.locator('.inbox-who').count()).toBe(0);
    expect(await accessibleName(pair.getByRole('link'))).toMatch(
      new RegExp(`^Unread: 10\\.00 STX · Alice → ${LONG_LABEL}, (just now|\\d+ min ago)$`),
    );
  });

  it('fits 320, 390 and 1366 px in light and dark: nothing sideways, every target 44 px, axe clean (screenshots)', async () => {
    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const)
      for (const size of LOOK_SIZES) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(size);
        const where = `${size.width}×${size.height} ${scheme}`;
        const report = await layoutReport(page);
        if (report.overflow > 0) problems.push(`${where}: scrolls ${report.overflow} px sideways`);
        problems.push(...report.badControls.map((control) => `${where}: ${control}`));
        // A tap anywhere on a row but its buttons and its time opens it: the row is the link's target.
        const small = await page.locator('.inbox-entry').evaluateAll((items) =>
          items.flatMap((item) => {
            const link = item.querySelector('a')!;
            const found: string[] = [];
            for (const part of item.querySelectorAll('.inbox-who, strong, .inbox-body')) {
              const box = part.getBoundingClientRect();
              if (box.top < 0 || box.bottom > window.innerHeight) continue;
              const hit = document.elementFromPoint(box.x + 2, box.y + box.height / 2);
              if (!hit || !link.contains(hit))
                found.push(`a tap on “${part.textContent}” reaches ${hit?.className ?? 'nothing'}`);
            }
            const targets = [item, ...item.querySelectorAll('button')];
            for (const target of targets) {
              const box = target.getBoundingClientRect();
              if (box.height < 44 || box.width < 44)
                found.push(
                  `${target.getAttribute('aria-label') ?? link.getAttribute('aria-label')}: ${box.width}×${box.height}`,
                );
            }
            return found;
          }),
        );
        const dayButtons = await page.locator('.inbox-day-top button').evaluateAll((buttons) =>
          buttons.flatMap((button) => {
            const box = button.getBoundingClientRect();
            return box.height < 44 ? [`${button.textContent}: ${box.width}×${box.height}`] : [];
          }),
        );
        problems.push(...[...small, ...dayButtons].map((target) => `${where}: ${target}`));
        // The name reaches the time, never under it; a name too long for that is cut with an ellipsis.
        const overlaps = await page.locator('.inbox-entry').evaluateAll((items) =>
          items.flatMap((item) => {
            const who = item.querySelector('.inbox-who')?.getBoundingClientRect();
            const when = item.querySelector('.inbox-when')!.getBoundingClientRect();
            return who && who.right > when.left + 0.5 ? [item.querySelector('.inbox-who')!.textContent] : [];
          }),
        );
        problems.push(...overlaps.map((name) => `${where}: "${name}" runs under the time`));
        if (size.width !== 320) {
          const violations = await axeViolations(page, AXE_SOURCE);
          problems.push(...violations.map((violation) => `${where}: axe ${violation.id} at ${violation.nodes[0]}`));
        }
      }
    await screenshotsEverywhere(page, 'inbox-day-list');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `inbox-day-list-390x844-${scheme}-full`, { fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  });

  it('marks a day read with "Mark these read", one alert with its ✓; grouping by address keeps its headed groups', async () => {
    await page.getByRole('button', { name: 'Mark the alert “Received 17.50 STX” read' }).click();
    await expect.poll(() => rows().first().getAttribute('class')).toBe('inbox-entry');
    await page.getByLabel('Group by address').check();
    const groups = page.locator('.inbox-group');
    await expect.poll(() => groups.count()).toBe(3);
    expect(await page.locator('.inbox-group-name').allTextContents()).toEqual(['carol.btc', 'Alice', LONG_LABEL]);
    // Under its heading an alert does not name the address again.
    expect(await groups.locator('.inbox-who').count()).toBe(0);
    // Each name starts on its fold arrow's line, the long one too (it wraps after it, never leaving it alone).
    const arrowBesideName = await groups.evaluateAll((all) =>
      all.map((group) => {
        const arrow = group.querySelector('.inbox-fold-arrow')!.getBoundingClientRect();
        const name = group.querySelector('.inbox-group-name')!.getClientRects()[0]!;
        return Math.abs(arrow.top - name.top) < 2 && arrow.width > 0;
      }),
    );
    expect(arrowBesideName).toEqual([true, true, true]);
    await screenshotsEverywhere(page, 'inbox-grouped');
    await page.getByLabel('Group by address').uncheck();
    await page.locator('.inbox-day').getByRole('button', { name: 'Mark these read' }).click();
    await expect.poll(async () => (await alertLog(page)).filter((entry) => !entry.read).length).toBe(0);
    await expect.poll(() => page.locator('.inbox-entry.unread').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark these read' }).count()).toBe(0);
  });

  it('opens a row from the keyboard: the whole row ringed while focused (screenshot)', async () => {
    await page.getByLabel('Group by address').focus();
    await page.keyboard.press('Tab');
    const first = rows().first().getByRole('link');
    expect(await first.evaluate((link) => link === document.activeElement)).toBe(true);
    await screenshot(page, 'inbox-day-list-focus-390x844-light');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/address/${people()[2]!.address}`));
    await page.goBack();
    await rows().first().waitFor();
  });

  it('with a mainnet address watched too, marks each testnet row beside its name (screenshots)', async () => {
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(MAINNET);
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.locator('.watch-row').nth(3).waitFor();
    await page.getByRole('link', { name: /^Inbox/ }).click();
    // Beside its name; a pair's row (both sides named in its words, no name line) beside its state.
    await expect.poll(() => rows().locator('.badge-testnet').count()).toBe(await rows().count());
    expect(await rows().locator('.inbox-headline .badge-testnet').count()).toBe(
      (await rows().count()) - (await rows().locator('.inbox-who-line').count()),
    );
    expect(await accessibleName(rows().first().getByRole('link'))).toMatch(
      /^carol\.btc Testnet: Received 17\.50 STX, /,
    );
    const problems: string[] = [];
    for (const size of LOOK_SIZES) {
      await page.setViewportSize(size);
      const overlaps = await rows().evaluateAll((items) =>
        items.flatMap((item) => {
          if (!item.querySelector('.inbox-who-line')) return [];
          const line = item.querySelector('.inbox-who-line')!.getBoundingClientRect();
          const when = item.querySelector('.inbox-when')!.getBoundingClientRect();
          return line.right > when.left + 0.5 ? [item.querySelector('.inbox-who-line')!.textContent] : [];
        }),
      );
      problems.push(...overlaps.map((name) => `${size.width} px: "${name}" runs under the time`));
    }
    await screenshotsEverywhere(page, 'inbox-day-list-networks');
    expect(problems).toEqual([]);
  });
});
