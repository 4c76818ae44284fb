import type { CDPSession, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { alertLog, control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, screenshot, screenshotsEverywhere } from './support/layout.ts';

const SIZES = [
  { width: 320, height: 700 },
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;
/** A label longer than a phone's row: it must wrap, never push the row's buttons out or hide the amount. */
const LONG_LABEL = 'Walker household savings';

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;
let cdp: CDPSession;
const txs: Record<'rent' | 'gift', string> = { rent: '', gift: '' };

const people = () => harness.devnet.node.chain.accounts.people;
const idsOf = (txId: string) => [people()[0]!, people()[1]!].map((person) => `testnet:${person.address}:${txId}`);
/** The inbox rows telling this transaction, as the user reads them. */
const rowsOf = (txId: string): Locator => page.locator(`.inbox-entry[data-alert*="${txId}"]`);
const titlesOf = (txId: string) => rowsOf(txId).locator('strong').allTextContents();
const stored = async (txId: string) => (await alertLog(page)).filter((entry) => entry.txId === txId);

/** Every title the rows of `txId` showed, and the most rows ever shown for it at once (read back with `seen`). */
const watchRows = (txId: string) =>
  page.evaluate((txId) => {
    const log = { titles: [] as string[], most: 0 };
    (window as unknown as Record<string, unknown>)[`rows-${txId}`] = log;
    const look = () => {
      const rows = [...document.querySelectorAll<HTMLElement>('.inbox-entry')].filter((row) =>
        row.dataset['alert']?.includes(txId),
      );
      log.most = Math.max(log.most, rows.length);
      for (const row of rows) {
        const title = row.querySelector('strong')?.textContent ?? '';
        if (log.titles.at(-1) !== title) log.titles.push(title);
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, txId);
const seen = (txId: string) =>
  page.evaluate((txId) => (window as unknown as Record<string, unknown>)[`rows-${txId}`], txId) as Promise<{
    titles: string[];
    most: number;
  }>;

describe('a transfer between two watched addresses in the inbox (issue 24, item 8)', () => {
  it('sets up: Alice, Bob labelled as the user calls him, Carol; the inbox open', async () => {
    page = await harness.browser.context.newPage();
    cdp = await harness.browser.context.newCDPSession(page);
    await page.setViewportSize(SIZES[1]);
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    const [alice, bob, carol] = people();
    for (const [person, label] of [
      [alice!, 'Alice'],
      [bob!, LONG_LABEL],
      [carol!, 'Carol'],
    ] as const) {
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(person.address);
      await page.getByLabel('Label').fill(label);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.locator('.watch-row').filter({ hasText: label }).waitFor();
    }
    await waitForLive(page);
    await page.getByRole('link', { name: /^Inbox/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
  });

  it('is one row, in the user’s labels, pending then mined; each address keeps its own alert stored', async () => {
    const [alice, bob, carol, dave] = people();
    const rent = await control(harness.devnet, '/devnet/transfer', {
      sender: alice!.address,
      recipient: bob!.address,
      amount: '4300000',
      memo: 'rent',
    });
    txs.rent = String(rent['tx_id']);
    await watchRows(txs.rent);
    // Carol's payment from an address nobody watches stays a row of its own.
    await control(harness.devnet, '/devnet/transfer', {
      sender: dave!.address,
      recipient: carol!.address,
      amount: '1250000',
    });
    await expect.poll(() => titlesOf(txs.rent)).toEqual([`4.30 STX · Alice → ${LONG_LABEL} — pending`]);
    expect((await rowsOf(txs.rent).getAttribute('data-alert'))!.split(' ').sort()).toEqual(idsOf(txs.rent).sort());
    expect(await rowsOf(txs.rent).locator('.inbox-body').textContent()).toBe('“rent”\nFee 0.0003 STX, paid by Alice');

    await control(harness.devnet, '/devnet/mine');
    expect(harness.devnet.node.chain.tx(txs.rent)?.state.kind).toBe('confirmed');
    await expect.poll(() => titlesOf(txs.rent)).toEqual([`4.30 STX · Alice → ${LONG_LABEL}`]);
    // Stored as two alerts, each in its address's own words: the address pages and the relay rely on them.
    await expect
      .poll(async () => (await stored(txs.rent)).map((entry) => [entry.principal, entry.phase, entry.title]).sort())
      .toEqual(
        [
          [alice!.address, 'confirmed', 'Sent 4.30 STX · fee 0.0003 STX'],
          [bob!.address, 'confirmed', 'Received 4.30 STX'],
        ].sort(),
      );
    await expect.poll(() => page.locator('.inbox-entry').filter({ hasText: 'Received 1.25 STX' }).count()).toBe(1);
    expect((await seen(txs.rent)).most).toBe(1);
  });

  it('stays one row through a re-org: reverted, back in the mempool, mined again', async () => {
    await control(harness.devnet, '/devnet/reorg', { depth: 1 });
    // The ledger: the transfer left its block and waits in the mempool again.
    expect(harness.devnet.node.chain.tx(txs.rent)?.state.kind).toBe('pending');
    await expect.poll(async () => (await stored(txs.rent)).map((entry) => entry.phase)).toEqual(['pending', 'pending']);
    await control(harness.devnet, '/devnet/mine');
    await expect
      .poll(async () => (await stored(txs.rent)).map((entry) => entry.phase))
      .toEqual(['confirmed', 'confirmed']);
    await expect.poll(() => titlesOf(txs.rent)).toEqual([`4.30 STX · Alice → ${LONG_LABEL}`]);
    const { titles, most } = await seen(txs.rent);
    expect(most).toBe(1);
    // Whatever states the app told on the way, the one row told them, the revert in its own words.
    const told = new Set((await stored(txs.rent)).flatMap((entry) => entry.deliveries.map((d) => d.phase)));
    if (told.has('reverted')) expect(titles).toContain(`Reverted: 4.30 STX · Alice → ${LONG_LABEL}`);
    expect(titles.at(-1)).toBe(`4.30 STX · Alice → ${LONG_LABEL}`);
  });

  it('a dropped one says so on its one row', async () => {
    const [alice, bob] = people();
    const gift = await control(harness.devnet, '/devnet/transfer', {
      sender: alice!.address,
      recipient: bob!.address,
      amount: '1000000',
    });
    txs.gift = String(gift['tx_id']);
    await expect.poll(() => titlesOf(txs.gift)).toEqual([`1.00 STX · Alice → ${LONG_LABEL} — pending`]);
    await control(harness.devnet, '/devnet/drop', { tx_id: txs.gift });
    expect(harness.devnet.node.chain.tx(txs.gift)?.state.kind).toMatch(/^dropped/);
    await expect.poll(() => titlesOf(txs.gift)).toEqual([`Dropped: 1.00 STX · Alice → ${LONG_LABEL}`]);
    // No block holds it: no fee was paid, and the row does not say one was.
    expect(await rowsOf(txs.gift).locator('.inbox-body').textContent()).toBe(
      'It left the mempool without being mined: nothing moved.',
    );
  });

  it('sits under the recipient when grouped by address (screenshots at 320, 390 and 1366 px, light and dark)', async () => {
    for (const scheme of ['light', 'dark'] as const)
      for (const size of SIZES) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(size);
        expect(await layoutReport(page)).toMatchObject({ overflow: 0, badControls: [] });
        await screenshot(page, `inbox-pair-${size.width}-${scheme}`);
      }
    // In time order a row names its address; the pair's words name both, with no name line above them.
    const carol = page.locator('.inbox-entry').filter({ hasText: 'Received 1.25 STX' });
    expect(await carol.locator('.inbox-who').textContent()).toBe('Carol');
    expect(await rowsOf(txs.rent).locator('.inbox-who').count()).toBe(0);
    await page.getByLabel('Group by address').check();
    const group = (name: string) =>
      page.locator('.inbox-group').filter({ has: page.locator('.inbox-group-name', { hasText: name }) });
    await expect.poll(() => group(LONG_LABEL).locator(`[data-alert*="${txs.rent}"]`).count()).toBe(1);
    expect(await group('Alice').count()).toBe(0);
    expect(await group(LONG_LABEL).getByRole('button', { name: 'Mark these read' }).count()).toBe(1);
    expect(await rowsOf(txs.rent).count()).toBe(1);
    for (const scheme of ['light', 'dark'] as const)
      for (const size of SIZES) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(size);
        expect(await layoutReport(page)).toMatchObject({ overflow: 0, badControls: [] });
        await screenshot(page, `inbox-pair-grouped-${size.width}-${scheme}`);
      }
    // Filtered by the sender, it is listed under her.
    await page.getByLabel('Alerts of').selectOption({ label: 'Alice' });
    await expect.poll(() => group('Alice').locator(`[data-alert*="${txs.rent}"]`).count()).toBe(1);
    await page.getByLabel('Alerts of').selectOption({ value: 'all' });
    await page.getByLabel('Group by address').uncheck();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(SIZES[1]);
  });

  it('is read and deleted as one: by its buttons, and by a swipe; the unread count counts it once', async () => {
    const unread = async () =>
      Number((await page.getByRole('link', { name: /^Inbox/ }).getAttribute('title'))?.match(/(\d+) unread/)?.[1] ?? 0);
    const before = await unread();
    await page.getByRole('button', { name: `Mark the alert “4.30 STX · Alice → ${LONG_LABEL}” read` }).click();
    await expect.poll(async () => (await stored(txs.rent)).map((entry) => entry.read)).toEqual([true, true]);
    expect(await unread()).toBe(before - 1);
    await page.getByRole('button', { name: `Delete the alert “4.30 STX · Alice → ${LONG_LABEL}”` }).click();
    await expect.poll(() => stored(txs.rent)).toEqual([]);
    expect(await rowsOf(txs.rent).count()).toBe(0);

    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
    try {
      await swipe(rowsOf(txs.gift), +120);
      await expect.poll(async () => (await stored(txs.gift)).map((entry) => entry.read)).toEqual([true, true]);
      await swipe(rowsOf(txs.gift), -120);
      await expect.poll(() => stored(txs.gift)).toEqual([]);
      await rowsOf(txs.gift).waitFor({ state: 'detached' });
    } finally {
      await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
    }
  });

  it('pairs with a watched address the user gave no label, in the open app’s toast too (item 2; screenshots)', async () => {
    const [alice, , , dave] = people();
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(dave!.address);
    await page.getByRole('button', { name: 'Watch' }).click();
    await expect.poll(() => page.locator('.watch-row').count()).toBe(4);
    await waitForLive(page);
    await control(harness.devnet, '/devnet/transfer', {
      sender: dave!.address,
      recipient: alice!.address,
      amount: '500000',
    });
    // Named as the app knows him without a label: his BNS name once looked up, else his short address.
    const toast = page.locator('.toast');
    const told = /^0\.50 STX · (dave\.btc|ST\w+…\w+) → Alice — pending$/;
    await expect.poll(async () => (await toast.locator('strong').allTextContents()).join(' | ')).toMatch(told);
    for (const scheme of ['light', 'dark'] as const)
      for (const size of SIZES) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(size);
        await toast.hover();
        expect(await layoutReport(page)).toMatchObject({ overflow: 0 });
        await screenshot(page, `pair-unlabelled-toast-${size.width}-${scheme}`);
      }
    expect(await toast.locator('strong').textContent()).toMatch(told);
    // His row, unlabelled, carries the BNS name the app learned for him (it said "No label" before).
    const daveRow = page.locator('.watch-row').filter({ has: page.getByText(dave!.address) });
    await expect.poll(() => daveRow.locator('.watch-label').textContent()).toBe('dave.btc');
  });

  it('opens the page of the address it is about, at its transaction: the recipient’s, or the filtered address’s (screenshots)', async () => {
    const [alice, bob] = people();
    const book = await control(harness.devnet, '/devnet/transfer', {
      sender: alice!.address,
      recipient: bob!.address,
      amount: '2000000',
      memo: 'book',
    });
    const txId = String(book['tx_id']);
    // The ledger's own record of who sent it and who received it.
    const signed = harness.devnet.node.chain.tx(txId)!.signed;
    const recipient = signed.intent.kind === 'stx' ? signed.intent.recipient : '';
    expect([signed.sender, recipient]).toEqual([alice!.address, bob!.address]);
    const inbox = async (of: string | null) => {
      await page.getByRole('link', { name: /^Inbox/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
      if (of) await page.getByLabel('Alerts of').selectOption({ label: of });
      await expect.poll(() => titlesOf(txId)).toEqual([`2.00 STX · Alice → ${LONG_LABEL} — pending`]);
    };
    /** Opens the pair's row; resolves once its page shows the transaction, open. */
    const open = async (expected: string) => {
      await rowsOf(txId).locator('a.inbox-open').click();
      await page.waitForURL(`**/address/${expected}#tx-${txId}`);
      await expect.poll(() => page.locator(`#tx-${txId} .activity-title`).getAttribute('aria-expanded')).toBe('true');
    };
    // Unfiltered, it opens the recipient's page, as its notification does.
    await inbox(null);
    await open(recipient);
    // Filtered by the sender, it is her outgoing transfer: her page, where it shows as going out.
    await inbox('Alice');
    await open(signed.sender);
    expect(await page.locator(`#tx-${txId} .activity-title`).textContent()).toMatch(/^Sending 2\.00 STX/);
    await screenshotsEverywhere(page, 'inbox-pair-opened-filtered', { show: page.locator(`#tx-${txId}`) });
    // Filtered by the recipient, his page.
    await inbox(LONG_LABEL);
    await open(recipient);
    expect(await page.locator(`#tx-${txId} .activity-title`).textContent()).toMatch(/^Receiving 2\.00 STX/);
  });

  it('filtered by one address, counts and marks read only its alerts, and says so (screenshots)', async () => {
    const [alice, , carol] = people();
    const unreadOf = async (principal: string) =>
      (await alertLog(page)).filter((entry) => entry.principal === principal && !entry.read).length;
    await page.getByRole('link', { name: /^Inbox/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    const unreadChoice = page.locator('.inbox-filters label').filter({ hasText: /^Unread/ });
    const markRead = page.locator('.inbox-head button');
    expect(await markRead.textContent()).toBe('Mark all read');
    // Carol's payment from an unwatched address, and Alice's 0.50 STX from Dave, are both unread.
    const aliceUnread = await unreadOf(alice!.address);
    const carolUnread = await unreadOf(carol!.address);
    expect([aliceUnread, carolUnread]).toEqual([1, 1]);

    // A long name wraps in the button on a phone, never pushing the page sideways.
    await page.getByLabel('Alerts of').selectOption({ label: LONG_LABEL });
    expect(await markRead.textContent()).toBe(`Mark ${LONG_LABEL}’s alerts read`);
    await screenshotsEverywhere(page, 'inbox-filtered-long-name', {
      check: async () => expect(await layoutReport(page)).toMatchObject({ overflow: 0, badControls: [] }),
    });

    await page.getByLabel('Alerts of').selectOption({ label: 'Carol' });
    await expect.poll(() => unreadChoice.textContent()).toBe(`Unread (${carolUnread})`);
    expect(await markRead.textContent()).toBe('Mark Carol’s alerts read');
    await screenshotsEverywhere(page, 'inbox-filtered-mark-read', {
      check: async () => expect(await layoutReport(page)).toMatchObject({ overflow: 0, badControls: [] }),
    });
    await markRead.click();
    await expect.poll(() => unreadOf(carol!.address)).toBe(0);
    await expect.poll(() => unreadChoice.textContent()).toBe('Unread (0)');
    expect(await markRead.isDisabled()).toBe(true);
    // Alice's stays unread: the button marked only what the filter showed.
    expect(await unreadOf(alice!.address)).toBe(aliceUnread);

    // Every address again: the count is the whole inbox's, as the header's bell says it.
    await page.getByLabel('Alerts of').selectOption({ value: 'all' });
    expect(await markRead.textContent()).toBe('Mark all read');
    const bell = await page.getByRole('link', { name: /^Inbox/ }).getAttribute('title');
    expect(bell).toBe('Inbox, 1 unread');
    expect(await unreadChoice.textContent()).toBe('Unread (1)');
  });
});

/** A finger on the element's middle, moved `dx` px sideways in steps, then lifted. */
async function swipe(element: Locator, dx: number): Promise<void> {
  const box = (await element.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', at: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: at, y }] });
  await touch('touchStart', x);
  for (let step = 1; step <= 6; step++) await touch('touchMove', x + (dx * step) / 6);
  await touch('touchEnd', x + dx);
}
