import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { serveBuiltAppForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';

const MAINNET = c32address(22, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');
const TYPO = `${MAINNET.slice(0, 25)}${MAINNET[25] === 'Q' ? 'R' : 'Q'}${MAINNET.slice(26)}`;

const app = serveBuiltAppForFile({ shell: true });

describe('a new user', () => {
  it('adds an address, which survives a reload and an offline reload', async () => {
    const page = await app.browser.context.newPage();
    await page.goto(app.server.url);
    await waitForServiceWorkerControl(page);

    await page.getByRole('button', { name: 'Add address' }).click();
    const address = page.getByLabel('Address');
    await address.fill(`  ${MAINNET.toLowerCase()}  `);
    await page.getByText('Mainnet · single-sig').waitFor();
    await page.getByText(MAINNET, { exact: true }).waitFor();

    await address.fill(TYPO);
    await page.getByRole('button', { name: 'Watch' }).click();
    expect(await page.getByRole('alert').textContent()).toBe(
      'The checksum does not match: check the characters, one is probably mistyped.',
    );

    await address.fill(MAINNET);
    await page.getByLabel('Label').fill('Treasury');
    await page.getByRole('button', { name: 'Watch' }).click();
    const item = page.getByRole('listitem').filter({ hasText: 'Treasury' });
    expect(await item.textContent()).toContain(MAINNET);

    await page.reload();
    await item.waitFor();
    expect(await page.getByRole('listitem').count()).toBe(1);

    await app.browser.context.setOffline(true);
    try {
      await page.reload();
      await item.waitFor();
      expect(await item.textContent()).toContain(MAINNET);
      await page.getByText('Offline — showing what this device last knew.').waitFor();

      await page.goto(`${app.server.url}/address/${MAINNET}`);
      await page.getByRole('heading', { level: 1, name: 'Treasury' }).waitFor();
      // Never loaded while online: it says so rather than "Loading…" for ever.
      await page.getByText(/tokens and NFTs of this address were never loaded on this device/).waitFor();
    } finally {
      await app.browser.context.setOffline(false);
    }
    await page.close();
  });

  it('pastes an address in lower case: told, where it adds it, that it is saved in capitals', async () => {
    for (const [size, hash] of [
      [{ width: 390, height: 844 }, 'c1'.repeat(20)],
      [{ width: 1366, height: 900 }, 'c2'.repeat(20)],
    ] as const) {
      const TESTNET = c32address(26, hash);
      const typed = TESTNET.toLowerCase();
      const page = await app.browser.context.newPage();
      await page.setViewportSize(size);
      await page.goto(app.server.url);
      await page.getByRole('button', { name: 'Add address' }).click();
      const address = page.getByLabel('Address');
      await address.fill(typed);
      const saves = page.locator('.add-form .respelled');
      await saves.waitFor();
      expect(await saves.textContent()).toBe(
        `Watch saves it as ${TESTNET} — Stacks addresses are written in capitals.`,
      );
      // What was typed stays in the field.
      expect(await address.inputValue()).toBe(typed);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await screenshot(page, `add-lowercase-form-${scheme}-${size.width}x${size.height}`);
      }
      await page.getByLabel('Label').fill('Savings');
      await page.getByRole('button', { name: 'Watch' }).click();
      const said = page.getByRole('status').filter({ hasText: 'Now watching Savings.' });
      expect(await said.textContent()).toBe(
        `Now watching Savings. Saved as ${TESTNET.slice(0, 6)}\u2060…\u2060${TESTNET.slice(-4)} — Stacks addresses are written in capitals.`,
      );
      expect(await said.isVisible()).toBe(true);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await screenshot(page, `add-lowercase-saved-${scheme}-${size.width}x${size.height}`);
      }
      await page.close();
    }
  });

  it('pastes a payment link or an explorer link: the address in it is read, and said where it came from', async () => {
    for (const size of [
      { width: 390, height: 844 },
      { width: 1366, height: 900 },
    ]) {
      const TESTNET = c32address(26, size.width === 390 ? 'd1'.repeat(20) : 'd2'.repeat(20));
      const page = await app.browser.context.newPage();
      await page.setViewportSize(size);
      await page.goto(app.server.url);
      await page.getByRole('button', { name: 'Add address' }).click();
      const address = page.getByLabel('Address');
      const preview = page.locator('.add-form .preview');

      await address.fill(`stacks:${TESTNET}?amount=5000000&memo=rent`);
      await preview.filter({ hasText: 'From the payment link: Testnet · single-sig' }).waitFor();
      expect(await preview.textContent()).toContain(TESTNET);
      await screenshot(page, `add-payment-link-${size.width}x${size.height}`);

      // A link to a transaction's page holds no address: said so, not a list of characters an address cannot hold.
      await address.fill(`https://explorer.hiro.so/txid/0x${'ab'.repeat(32)}?chain=testnet`);
      await page.getByRole('button', { name: 'Watch' }).click();
      expect(await page.getByRole('alert').textContent()).toBe(
        'This link holds no Stacks address. Paste the address itself (SP… or SM… on mainnet, ST… or SN… on testnet), or a link to its page on an explorer.',
      );

      await address.fill(`https://explorer.hiro.so/address/${TESTNET}?chain=testnet`);
      await preview.filter({ hasText: 'From the web link: Testnet · single-sig' }).waitFor();
      await page.getByRole('button', { name: 'Watch' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Now watching ${TESTNET}.` })
        .waitFor();
      await page.close();
    }
  });

  it('opens an address page directly, canonicalising the URL', async () => {
    const page = await app.browser.context.newPage();
    await page.goto(`${app.server.url}/address/${MAINNET.toLowerCase()}`);
    await page.waitForURL(`${app.server.url}/address/${MAINNET}`);
    await page.getByText('single-sig').waitFor();
    await page.close();
  });
});
