import { c32address } from 'c32check';
import { startDevnet } from '../mocks/devnet/server.ts';
import { serveApp } from '../scripts/serve-app.ts';
import { launchBrowser } from '../tests/e2e/support/chromium.ts';
import { control, quantile } from './support.ts';

export interface AlertFigures {
  readonly addresses: number;
  readonly runs: number;
  /** The node mines the block (its events go out) → the service worker's showNotification for it has resolved. */
  readonly eventToNotificationMs: { p50: number; p95: number; max: number };
}

/**
 * In Chromium against the devnet, as a user with notifications allowed and shown while the app is open: `addresses`
 * watched addresses, transfers to a different one each run (so each confirmation is a notification of its own,
 * not folded into a summary). The service worker's showNotification is wrapped to note when each one was shown.
 */
export async function measureAlertLatency(addresses: number, runs: number): Promise<AlertFigures> {
  const devnet = await startDevnet({ port: 0, blockMs: null });
  const app = await serveApp({ runtimeConfig: { devnet: { url: devnet.url } } });
  const browser = await launchBrowser();
  try {
    const { people, treasury } = devnet.node.chain.accounts;
    const senders = [...people.map((person) => person.address), treasury.address];
    const strangers = Array.from({ length: addresses - senders.length }, (_, n) =>
      c32address(26, `a${n.toString(16).padStart(39, '0')}`),
    );
    await browser.context.grantPermissions(['notifications'], { origin: app.url });
    const page = await browser.context.newPage();
    await page.goto(app.url);
    // Functions, not strings: the app's CSP refuses the eval a string predicate needs.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.getByRole('link', { name: 'Settings' }).click();
    // As the browser tests turn it on (support/alerts.ts, openWatching): once the page knows the permission.
    await page.getByText('Notifications are on for Stacks Watch.').waitFor();
    await page.getByLabel('Show system notifications instead').check();
    // Import lives in Settings.
    await page.getByLabel('Import…').setInputFiles({
      name: 'watch.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify([...senders, ...strangers])),
    });
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await page.locator('.connection-live').waitFor({ timeout: 60_000 });
    await page.waitForFunction((n) => document.querySelectorAll('.stx-available').length === n, addresses, {
      timeout: 60_000,
    });
    const worker = browser.context.serviceWorkers()[0];
    if (!worker) throw new Error('the service worker is not running');
    await worker.evaluate(`(() => {
      const show = self.registration.showNotification.bind(self.registration);
      self.shownAt = [];
      self.registration.showNotification = (title, options) =>
        show(title, options).then(() => { self.shownAt.push({ title, ids: options.data.ids, at: Date.now() }); });
    })()`);
    const shownAt = (id: string, confirmed: boolean): Promise<number> =>
      worker.evaluate(`new Promise((resolve) => {
        const find = () => self.shownAt.find((shown) => shown.ids.includes(${JSON.stringify(id)}) &&
          ${confirmed ? '!' : ''}shown.title.endsWith('pending'));
        const poll = () => { const shown = find(); if (shown) resolve(shown.at); else setTimeout(poll, 2); };
        poll();
      })`);

    const latencies: number[] = [];
    for (let run = 0; run < runs; run++) {
      const recipient = strangers[run % strangers.length]!;
      const { tx_id } = await control(devnet, '/devnet/transfer', {
        sender: senders[run % senders.length],
        recipient,
        amount: String(1_000_000 + run),
      });
      const id = `testnet:${recipient}:${tx_id}`;
      await shownAt(id, false);
      const minedAt = Date.now();
      await control(devnet, '/devnet/mine', {});
      latencies.push((await shownAt(id, true)) - minedAt);
    }
    return {
      addresses,
      runs,
      eventToNotificationMs: {
        p50: quantile(latencies, 0.5),
        p95: quantile(latencies, 0.95),
        max: Math.max(...latencies),
      },
    };
  } finally {
    await browser.close();
    await app.close();
    await devnet.close();
  }
}
