import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, screenshot, screenshotsEverywhere } from './support/layout.ts';

const SIZES = [
  { width: 320, height: 700 },
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;
const SCAM_NAME = 'Claim at stx-airdrop.example';
/** The scam's symbol reads as a web address too: it shows in every amount of the token, where it must never be. */
const SCAM_SYMBOL = 'stx-airdrop.example';
const TEN_BILLION_STX = 10_000_000_000n * 1_000_000n;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;
let cdp: CDPSession;

const accounts = () => harness.devnet.node.chain.accounts;
const row = (name: string) => page.locator('.watch-row').filter({ has: page.getByText(name, { exact: true }) });
const home = async () => {
  await page.getByRole('link', { name: 'Stacks Watch' }).click();
  await page.locator('.watch-row').first().waitFor();
};
const openAddress = async (name: string) => {
  await home();
  await row(name).getByRole('link').click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
};

/** Every figure whose right edge runs past the card it sits in. */
const figuresPastTheirCard = () =>
  page.evaluate(() =>
    [...document.querySelectorAll('.stx-available, .watch-nav-figure, .totals dd, .holding-amount')].flatMap(
      (figure) => {
        const card = figure.closest('.watch-row, .watch-nav, .card, .totals');
        if (!card || figure.getBoundingClientRect().width === 0) return [];
        // The text's own extent: a box that does not wrap its text keeps its width while the text runs on.
        const text = document.createRange();
        text.selectNodeContents(figure);
        const past = text.getBoundingClientRect().right - card.getBoundingClientRect().right;
        return past > 0.5 ? [`${figure.textContent} runs ${Math.round(past)} px past its ${card.className}`] : [];
      },
    ),
  );

describe('small truths a new user meets', () => {
  it('sets up: the demo accounts; Bob named bob.btc, Dave with ten billion STX, an airdrop Alice never asked for', async () => {
    page = await harness.browser.context.newPage();
    cdp = await harness.browser.context.newCDPSession(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    const { people, deployer } = accounts();
    const [alice, bob, , dave] = people;
    await control(harness.devnet, '/devnet/name', { name: 'bob.btc', owner: bob!.address });
    harness.devnet.node.chain.state.credit(dave!.address, TEN_BILLION_STX);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await control(harness.devnet, '/devnet/token', {
      deployer: deployer.address,
      contract: 'airdrop',
      name: SCAM_NAME,
      symbol: SCAM_SYMBOL,
      recipient: alice!.address,
      amount: '1000000',
    });
    await control(harness.devnet, '/devnet/transfer', {
      sender: bob!.address,
      recipient: alice!.address,
      amount: '1000000',
    });
    await control(harness.devnet, '/devnet/transfer', {
      sender: bob!.address,
      recipient: dave!.address,
      amount: '1000000',
    });
    await control(harness.devnet, '/devnet/mine');
    await row('Dave')
      .getByText(/^10,000,\d{3},\d{3}\.\d+ STX$/)
      .waitFor();
  });

  it('folds away a token Alice never asked for, and marks it (and its link-like name) when shown', async () => {
    await openAddress('Alice');
    const card = page.locator('.card').filter({ has: page.getByRole('heading', { name: 'Tokens and NFTs' }) });
    const toggle = card.getByRole('button', { name: /^Show 1 unsolicited token/ });
    await toggle.waitFor();
    expect(await card.locator('.holding').count()).toBeGreaterThan(0);
    expect(await card.getByText(SCAM_NAME).count()).toBe(0);
    // The offer to show them is a long sentence: it wraps on a phone instead of widening the page.
    for (const size of SIZES) {
      await page.setViewportSize(size);
      // The chart takes its new width a frame after the resize.
      await expect.poll(async () => (await layoutReport(page)).overflow).toBe(0);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await toggle.click();
    const scam = card.locator('.holding').filter({ hasText: SCAM_NAME });
    await scam.waitFor();
    expect(await scam.locator('.badge').allTextContents()).toEqual([
      'Unsolicited',
      'Name looks like a link: a common scam',
    ]);
    // Its amount names the contract's own asset, marked, never the link-like symbol.
    const amount = await scam.locator('.holding-amount').textContent();
    expect(amount).toMatch(/^1\.00 \S+ \(its symbol looks like a link: a common scam\)$/);
    expect(amount).not.toContain(SCAM_SYMBOL);
    // The demo tokens came to her at genesis, in no transaction anyone signed for her: not judged, not flagged.
    expect(await card.locator('.holding .badge').count()).toBe(2);
    for (const size of SIZES)
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(size);
        await card.scrollIntoViewIfNeeded();
        expect((await layoutReport(page)).overflow).toBe(0);
        await screenshot(page, `holdings-${size.width}-${scheme}`);
      }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('keeps a ten-billion balance inside its card on every screen size', async () => {
    const problems: string[] = [];
    for (const size of [...SIZES, { width: 1280, height: 800 }]) {
      await page.setViewportSize(size);
      await home();
      problems.push(...(await figuresPastTheirCard()).map((problem) => `home at ${size.width}: ${problem}`));
      await openAddress('Dave');
      await page.locator('.balance-card').waitFor();
      problems.push(...(await figuresPastTheirCard()).map((problem) => `Dave at ${size.width}: ${problem}`));
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await screenshot(page, `ten-billion-${size.width}-${scheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    expect(problems).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('finds Bob by the BNS name the app resolved for him', async () => {
    await home();
    const search = page.getByRole('searchbox');
    await search.fill('bob.btc');
    // The engine looks his name up when an alert names him (he paid Alice): the search finds it from then on.
    await expect.poll(async () => page.locator('.watch-row .watch-label').allTextContents()).toEqual(['Bob']);
    await search.fill('');
  });

  it('says what is wrong with an address beside its field after a pause in typing, before any Watch', async () => {
    await home();
    await page.getByRole('button', { name: 'Add address' }).click();
    const field = page.getByLabel('Address to watch (or a BNS name)');
    await field.pressSequentially('SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ8', { delay: 5 });
    const error = page.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'The checksum does not match: check the characters, one is probably mistyped.',
    );
    const [fieldBox, errorBox, networkBox] = await Promise.all([
      field.boundingBox(),
      error.boundingBox(),
      page.getByLabel('Network').boundingBox(),
    ]);
    expect(errorBox!.y).toBeGreaterThanOrEqual(fieldBox!.y + fieldBox!.height - 1);
    expect(errorBox!.y + errorBox!.height).toBeLessThanOrEqual(networkBox!.y);
    await screenshotsEverywhere(page, 'add-error');
    await page.keyboard.press('Escape');
  });

  it('refuses a contract name with a space, naming it and the rule, rather than watching another name', async () => {
    await home();
    const deployer = accounts().deployer.address;
    const watched = await page.locator('.watch-row').count();
    await page.getByRole('button', { name: 'Add address' }).click();
    const field = page.getByLabel('Address to watch (or a BNS name)');
    // Spaces at the two ends of the whole input are still trimmed; the one inside the name is not taken out.
    await field.fill(`  ${deployer}.my contract `);
    await page.getByRole('button', { name: 'Watch' }).click();
    const error = page.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'The contract name cannot contain a space at position 3 of the name. A contract name starts with a letter ' +
        'and uses letters, digits, “-” and “_”, at most 40 characters.',
    );
    expect(await field.inputValue()).toBe(`  ${deployer}.my contract `);
    expect(await page.getByText(`${deployer}.mycontract`).count()).toBe(0);
    await screenshotsEverywhere(page, 'contract-name-space');
    await field.fill(`${deployer}.my-contract$`);
    await page.getByRole('button', { name: 'Watch' }).click();
    await expect
      .poll(() => error.textContent())
      .toMatch(/^The contract name cannot contain “\$” at position 12 of the name\./);
    expect(await page.locator('.watch-row').count()).toBe(watched);
    await page.keyboard.press('Escape');
  });

  it('says when no contract is deployed at a contract principal, and watches it only when asked again', async () => {
    await home();
    const deployer = accounts().deployer.address;
    const token = harness.devnet.node.chain.assets.tokens[0]!.contractId;
    const watched = await page.locator('.watch-row').count();
    await page.getByRole('button', { name: 'Add address' }).click();
    const field = page.getByLabel('Address to watch (or a BNS name)');
    await field.fill(`${deployer}.no-such-contract`);
    await page.getByRole('button', { name: 'Watch' }).click();
    await page
      .getByRole('alert')
      .getByText(`No contract deployed at ${deployer}.no-such-contract on Testnet, says its node.`, { exact: false })
      .waitFor();
    expect(await page.locator('.watch-row').count()).toBe(watched);
    await screenshotsEverywhere(page, 'no-contract');
    await page.getByRole('button', { name: 'Watch' }).click();
    await expect.poll(() => page.locator('.watch-row').count()).toBe(watched + 1);
    // A deployed one is added at the first press, with nothing to say.
    await page.getByRole('button', { name: 'Add address' }).click();
    await field.fill(token);
    await page.getByRole('button', { name: 'Watch' }).click();
    await expect.poll(() => page.locator('.watch-row').count()).toBe(watched + 2);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('says what kind of address it is in plain words on its page, its encoding as a detail under them', async () => {
    const facts = () => page.getByRole('region', { name: 'About this address' });
    const typeOf = async () =>
      facts()
        .locator('dt', { hasText: /^Address type$/ })
        .locator('xpath=following-sibling::dd[1]')
        .textContent();
    await openAddress('Alice');
    expect(await typeOf()).toBe('Standard (single-signature)ST prefix · version byte 26');
    expect(await facts().textContent()).not.toMatch(/Version byte|Kind/);
    await screenshotsEverywhere(page, 'address-facts', { show: facts() });
    await openAddress('Treasury (2-of-3)');
    expect(await typeOf()).toBe('Multi-signature (several keys sign together)SN prefix · version byte 21');
    await openAddress('Vault contract');
    expect(await typeOf()).toBe('Smart contractST prefix · version byte 26');
  });

  it('offers a way back from an address page in the installed app (no browser Back there), and only there', async () => {
    await openAddress('Bob');
    expect(await page.getByRole('link', { name: 'Watch list' }).count()).toBe(0);
    // Chromium cannot emulate an installed window's display mode: the page is told so as the browser would tell it.
    const installed = await harness.browser.context.newPage();
    await installed.addInitScript(() => {
      const real = window.matchMedia.bind(window);
      window.matchMedia = (query: string) => real(query === '(display-mode: standalone)' ? 'all' : query);
    });
    await installed.setViewportSize({ width: 390, height: 844 });
    await installed.goto(`${harness.server.url}/address/${accounts().people[1]!.address}`);
    const back = installed.getByRole('link', { name: 'Watch list' });
    await back.waitFor();
    await screenshotsEverywhere(installed, 'standalone-address');
    await back.click();
    await installed.waitForURL(`${harness.server.url}/`);
    await installed.close();
  });

  it('says "Touch the line" on a touch screen, and swipes an alert read, then away', async () => {
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
    await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'pointer', value: 'coarse' }] });
    try {
      await openAddress('Alice');
      await page.getByText('Touch the line to read a balance.').waitFor();

      await page.goto(`${harness.server.url}/inbox`);
      const first = page.locator('.inbox-entry.unread').first();
      await first.waitFor();
      const id = await first.getAttribute('data-alert');
      const entry = page.locator(`.inbox-entry[data-alert="${id}"]`);
      await swipe(entry, +120);
      await expect.poll(() => entry.getAttribute('class')).toBe('inbox-entry');
      await swipe(entry, -120);
      await entry.waitFor({ state: 'detached' });
    } finally {
      await cdp.send('Emulation.setEmulatedMedia', { features: [] });
      await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
    }
  });

  it('tells on the privacy screen that naming a counterparty by BNS tells the node that address too', async () => {
    await page.goto(`${harness.server.url}/privacy`);
    await page
      .getByText(/the node also learns the addresses your watched ones deal with, including those you do not watch/)
      .waitFor();
  });
});

/** A finger on the element's middle, moved `dx` px sideways in steps, then lifted. */
async function swipe(element: ReturnType<Page['locator']>, dx: number): Promise<void> {
  const box = (await element.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', at: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: at, y }],
    });
  await touch('touchStart', x);
  for (let step = 1; step <= 6; step++) await touch('touchMove', x + (dx * step) / 6);
  await touch('touchEnd', x + dx);
}
