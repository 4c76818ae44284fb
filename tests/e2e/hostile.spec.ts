/**
 * Tried as a new user would, on the devnet: a memo of markup shows as text and runs nothing, and a dust transfer
 * from a lookalike of a watched address is flagged in the activity, the detail and the notification, never
 * celebrated as "Received".
 */
import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import LOOKALIKES from '../fixtures/lookalikes.json' with { type: 'json' };
import { control, notificationsShown, openWatching } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null });
const MARKUP = '<img src=x onerror=alert(1)>';

describe('hostile input from the chain', () => {
  it('shows a markup memo literally and flags a lookalike’s dust instead of celebrating it', async () => {
    const [victim, friend, poisoner] = harness.devnet.node.chain.accounts.people.map((person) => person.address) as [
      string,
      string,
      string,
    ];
    const cold = LOOKALIKES.devnet[poisoner as keyof typeof LOOKALIKES.devnet];
    expect(cold, `no lookalike recorded for ${poisoner}: compute one with validLookalike()`).toBeDefined();
    expect(c32address(26, cold.hash)).toBe(cold.address);

    const page = await openWatching(harness.browser.context, harness.server.url, [
      { address: victim, label: 'Savings' },
      { address: cold.address, label: 'Cold wallet' },
    ]);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const send = (body: Record<string, string>) =>
      control(harness.devnet, '/devnet/transfer', body) as Promise<Record<string, string>>;
    const memoTx = await send({ sender: friend, recipient: victim, amount: '2000000', memo: MARKUP });
    const dustTx = await send({ sender: poisoner, recipient: victim, amount: '1', memo: 'airdrop' });
    await control(harness.devnet, '/devnet/mine', {});

    await page
      .getByRole('link', { name: /Savings/ })
      .first()
      .click();
    const memoRow = page.locator(`[data-tx="${memoTx.tx_id}"].activity-success`);
    await memoRow.waitFor();
    expect(await memoRow.locator('.memo').textContent()).toBe(`“${MARKUP}”`);
    expect(await page.locator('.activity img, .activity-card img').count()).toBe(0);

    const dustRow = page.locator(`[data-tx="${dustTx.tx_id}"].activity-success`);
    await dustRow.waitFor();
    expect(await dustRow.getAttribute('class')).toContain('poisoning');
    expect(await dustRow.locator('.poisoning-warning').first().textContent()).toContain(
      'Possible address-poisoning: ST30BS…2D7B looks like Cold wallet',
    );
    await dustRow.locator('.activity-title').click();
    const detailWarning = dustRow.locator('.poisoning-warning').nth(1);
    expect(await detailWarning.textContent()).toContain(`sent by ${poisoner}, not ${cold.address}`);
    await detailWarning.getByRole('button', { name: 'How is this decided?' }).click();
    await detailWarning.getByText(/first 6 characters .* last 4 characters/).waitFor();

    await expect
      .poll(async () => (await notificationsShown(page)).map((shown) => shown.title).join('\n'))
      .toMatch(/Possible address-poisoning: ST30BS…2D7B looks like Cold wallet/);
    const shown = await notificationsShown(page);
    expect(shown.filter((item) => /Receiv\w+ 0\.000001 STX/.test(item.title))).toEqual([]);
    expect(shown.find((item) => item.title === 'Received 2.00 STX')?.body).toContain(`“${MARKUP}”`);
    expect(dialogs).toEqual([]);

    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height });
      await dustRow.scrollIntoViewIfNeeded();
      await screenshot(page, `poisoning-${width}x${height}`);
    }
    await page.close();
  });
});
