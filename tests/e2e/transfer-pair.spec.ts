import { describe, expect, it } from 'vitest';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { alertLog, control, notificationsEverShown, openWatching } from './support/alerts.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false });

/** The devnet's own words for an amount in micro-STX: the oracle for what the alert must say. */
const stx = (micro: bigint) =>
  `${(micro / 1_000_000n).toLocaleString('en-US')}.${(micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0')} STX`;

describe('a transfer between two watched addresses', () => {
  it('is told as one, pending and mined, in the notification and the toast; the inbox keeps each address its own', async () => {
    const [alice, bob] = harness.devnet.node.chain.accounts.people;
    const page = await openWatching(harness.browser.context, harness.server.url, [
      { address: alice!.address, label: 'Alice' },
      { address: bob!.address, label: 'Walker' },
    ]);
    const amount = 4_300_000n;
    const { tx_id: txId } = (await control(harness.devnet, '/devnet/transfer', {
      sender: alice!.address,
      recipient: bob!.address,
      amount: amount.toString(),
    })) as { tx_id: string };
    const pairWords = `Alice → Walker ${stx(amount)}`;
    const told = async () =>
      (await notificationsEverShown(page)).filter((notification) => notification.ids.some((id) => id.endsWith(txId)));
    await expect
      .poll(async () => (await told()).map((n) => n.title), { timeout: 30_000 })
      .toContain(`${pairWords} — pending`);
    const pending = (await told()).find((n) => n.title === `${pairWords} — pending`)!;
    expect([...pending.ids].sort()).toEqual(
      [`testnet:${alice!.address}:${txId}`, `testnet:${bob!.address}:${txId}`].sort(),
    );
    // Nothing else on screen tells this transaction: one notification, not a sent and a received one.
    expect((await told()).length).toBe(1);

    // The toast is that same content handed to the page (headless Chromium does not always report the window as
    // focused to the service worker): it reads in the pair's words, not "2 new alerts".
    await page.evaluate((content) => {
      navigator.serviceWorker.dispatchEvent(
        new MessageEvent('message', {
          data: {
            type: 'TOAST',
            content: {
              title: content.title,
              body: content.body,
              tag: content.tag,
              renotify: true,
              data: { ids: content.ids, path: content.path, summary: null },
            },
          },
        }),
      );
    }, pending);
    const toast = page.locator('.toast');
    await toast.hover();
    await expect.poll(() => toast.locator('strong').textContent()).toBe(`${pairWords} — pending`);

    // Mined: the confirmation is told as one too, and replaces the pending one.
    await control(harness.devnet, '/devnet/mine');
    await expect.poll(async () => (await told()).map((n) => n.title), { timeout: 30_000 }).toEqual([pairWords]);

    // Each address keeps its own entry: its page and filter list it in its own words.
    const log = await alertLog(page);
    const mine = log.filter((entry) => entry.txId === txId).map((entry) => [entry.principal, entry.title]);
    expect(mine.sort()).toEqual(
      [
        [alice!.address, expect.stringMatching(new RegExp(`^Sent ${stx(amount).replace('.', '\\.')} · fee `))],
        [bob!.address, `Received ${stx(amount)}`],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  }, 120_000);
});
