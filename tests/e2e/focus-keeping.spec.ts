/**
 * The keyboard's place (a new user's walk with the keyboard and a screen reader): an action that takes away the
 * control pressed leaves the focus on a sensible neighbour, never on the page's body; a new screen says itself in
 * the document's title and takes the focus to its heading; Back comes back to the row that was opened. What is
 * focused is read from `document.activeElement` in the page; the alerts come from the devnet's transfers.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { alertLog, control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
let page: Page;
const person = (index: number) => harness.devnet.node.chain.accounts.people[index]!.address;

/** What has the focus, in words a test can compare: its tag, name and where it sits. */
function focused(): Promise<{
  tag: string;
  name: string;
  text: string;
  control: string | null;
  alert: string | null;
  principal: string | null;
}> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const name = element?.getAttribute('aria-label') ?? '';
    const link = element?.closest('.watch-row')?.querySelector('.watch-link')?.getAttribute('href');
    return {
      tag: element?.tagName.toLowerCase() ?? 'none',
      name,
      text: element?.textContent?.trim() ?? '',
      control: name.startsWith('Mark the alert') ? 'read' : name.startsWith('Delete the alert') ? 'delete' : null,
      alert: element?.closest<HTMLElement>('.inbox-entry')?.dataset.alert ?? null,
      principal: link ? decodeURIComponent(link.replace('/address/', '')) : null,
    };
  });
}

/** Screenshots of the focus where it is, at a phone's width and a desktop's; the focus stays put meanwhile. */
async function shoot(name: string): Promise<void> {
  const before = await focused();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await screenshot(page, `focus-${name}-${size.width}x${size.height}`);
  }
  expect(await focused()).toEqual(before);
}

/** Keyboard only: focuses the control as Tab would reach it, then presses Enter. */
async function enterOn(selector: string): Promise<void> {
  await page.locator(selector).focus();
  await page.keyboard.press('Enter');
}

const inboxKeys = () =>
  page.locator('.inbox-entry').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.alert!));
const CONTROL_NAMES = { read: 'Mark the alert', delete: 'Delete the alert' } as const;
const rowControl = (key: string, control: 'read' | 'delete') =>
  `.inbox-entry[data-alert="${key}"] button[aria-label^="${CONTROL_NAMES[control]}"]`;
/** A watch row's link (its name), by its address. */
const rowLink = (index: number) => `.watch-link[href="/address/${person(index)}"]`;

describe('the focus after an action and a change of screen', () => {
  it('sets up: Alice and Bob watched', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(SIZES[0]);
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    for (const [index, label] of [
      [0, 'Alice'],
      [1, 'Bob'],
    ] as const) {
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(person(index));
      await page.getByLabel('Label').fill(label);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.locator(rowLink(index)).waitFor();
    }
    await waitForLive(page);
  });

  it('opens the Add sheet on its address field, not its Close', async () => {
    await enterOn('.add-button');
    await page.locator('dialog[open]').waitFor();
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('address');
    await shoot('add-sheet');
    await page.keyboard.press('Escape');
    await page.locator('dialog[open]').waitFor({ state: 'detached' });
  });

  it('has a brand link as wide as its words, so its focus ring hugs them', async () => {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      const { link, words } = await page.locator('.brand').evaluate((brand) => {
        const range = document.createRange();
        range.selectNodeContents(brand);
        return { link: brand.getBoundingClientRect().width, words: range.getBoundingClientRect().width };
      });
      expect(link).toBeLessThanOrEqual(Math.ceil(words) + 1);
    }
    await page.locator('.brand').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await shoot('brand');
  });

  it('moves the focus to the new screen’s heading, and Back to the row that was opened', async () => {
    expect(await page.title()).toBe('Watch list — Stacks Watch');
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await enterOn(rowLink(0));
      await expect.poll(focused).toMatchObject({ tag: 'h1', text: 'Alice' });
      expect(await page.title()).toBe('Alice — Stacks Watch');
      if (size.width === 1366) await shoot('address-heading');
      await page.goBack();
      await expect.poll(focused).toMatchObject({ tag: 'a', principal: person(0) });
      expect(await page.title()).toBe('Watch list — Stacks Watch');
      if (size.width === 1366) await shoot('back-to-row');
    }
    await enterOn('a[href="/settings"]');
    await expect.poll(focused).toMatchObject({ tag: 'h1', text: 'Settings' });
    expect(await page.title()).toBe('Settings — Stacks Watch');
    await enterOn('.brand');
    await expect.poll(() => page.title()).toBe('Watch list — Stacks Watch');
  });

  it('keeps the focus on the row’s bin after ✓, then on the next, the previous and the heading after deletes', async () => {
    for (const amount of ['1000000', '2000000', '3000000'])
      await control(harness.devnet, '/devnet/transfer', { sender: person(3), recipient: person(0), amount });
    await control(harness.devnet, '/devnet/mine');
    await expect.poll(async () => (await alertLog(page)).filter((entry) => entry.phase === 'confirmed').length).toBe(3);
    await page.setViewportSize(SIZES[0]);
    await enterOn('a[href="/inbox"]');
    await expect.poll(focused).toMatchObject({ tag: 'h1', text: 'Inbox' });
    expect(await page.title()).toBe('Inbox — Stacks Watch');
    await expect.poll(() => page.locator(`.inbox-entry button[aria-label^="Mark the alert"]`).count()).toBe(3);
    const [first, second, third] = await inboxKeys();

    await enterOn(rowControl(first!, 'read'));
    await expect.poll(focused).toMatchObject({ control: 'delete', alert: first });
    expect(await page.locator(rowControl(first!, 'read')).count()).toBe(0);
    await shoot('inbox-read');

    // The other two are unread: "Mark these read" marks them and goes; the focus stays in their list, on its first bin.
    await enterOn('.inbox-mark-these');
    await expect.poll(focused).toMatchObject({ control: 'delete', alert: first });
    expect(await page.locator('.inbox-mark-these').count()).toBe(0);
    expect(await page.locator(`.inbox-entry button[aria-label^="Mark the alert"]`).count()).toBe(0);

    await enterOn(rowControl(first!, 'delete'));
    await expect.poll(focused).toMatchObject({ control: 'delete', alert: second });
    expect(await inboxKeys()).toEqual([second, third]);
    await shoot('inbox-deleted');

    await enterOn(rowControl(third!, 'delete'));
    await expect.poll(focused).toMatchObject({ control: 'delete', alert: second });
    expect(await inboxKeys()).toEqual([second]);

    await enterOn(rowControl(second!, 'delete'));
    await expect.poll(focused).toMatchObject({ tag: 'h1', text: 'Inbox' });
    expect(await inboxKeys()).toEqual([]);
    await shoot('inbox-emptied');
    await enterOn('.brand');
    await page.locator('.watch-row').first().waitFor();
  });

  it('comes back to the renamed row’s ⋯ after Rename, and to the restored row after Undo', async () => {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      const label = `Alice at ${size.width}`;
      await enterOn(`.watch-row:has(${rowLink(0)}) .row-more`);
      await page.locator('.row-actions button', { hasText: 'Rename' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await focused()).tag).toBe('input');
      await page.locator('.rename input').fill(label);
      await page.keyboard.press('Enter');
      await expect.poll(focused).toMatchObject({ tag: 'button', name: `Actions for ${label}`, principal: person(0) });
      await shoot(`renamed-${size.width}`);

      await enterOn(`.watch-row:has(${rowLink(1)}) .row-more`);
      await page.getByRole('button', { name: 'Remove Bob' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('.watch-row').filter({ hasText: 'Bob' }).waitFor({ state: 'detached' });
      await enterOn('.undo-bar button');
      await expect.poll(focused).toMatchObject({ tag: 'a', principal: person(1) });
      expect(await page.locator('.undo-bar').count()).toBe(0);
      await shoot(`undone-${size.width}`);
    }
  });
});
