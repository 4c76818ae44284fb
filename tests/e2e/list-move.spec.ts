import { c32address } from 'c32check';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { axeViolations, waitForServiceWorkerControl } from './support/app-page.ts';
import { showToast } from './support/alerts.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { serveBuiltAppForFile } from './support/harness.ts';
import { layoutReport, screenshot, screenshotsEverywhere } from './support/layout.ts';

/*
 * Moving the list between two devices: each device is its own Chromium profile. What must arrive is written here by
 * hand (the file below, the labels and rules it holds), never taken from the app under test.
 */
const hash = (n: number) => n.toString(16).padStart(40, 'c');
const COLD = c32address(22, hash(1));
const VAULT = c32address(20, hash(2));
const FAUCET = c32address(26, hash(3));
const POOL = `${c32address(21, hash(4))}.stacking-pool`;
const LABELS: Record<string, string> = {
  [COLD]: 'Cold · 金库 #1 & co=2',
  [VAULT]: 'Vault 2-of-3',
  [FAUCET]: 'Faucet',
  [POOL]: '',
};
const NETWORKS: Record<string, string> = {
  [COLD]: 'Mainnet',
  [VAULT]: 'Mainnet',
  [FAUCET]: 'Testnet',
  [POOL]: 'Testnet',
};
/** The rules the file gives, and how the address page words them. */
const RULES: Record<string, { record: object; words: string }> = {
  [COLD]: {
    record: { pending: false, minimums: { STX: '2500000' } },
    words: 'Received and sent · STX, tokens and NFTs · staking · under 2.50 STX ignored',
  },
  [FAUCET]: { record: { muted: true }, words: 'Off: nothing is told about this address' },
};
const DEFAULT_WORDS = 'Received and sent · STX, tokens and NFTs · staking · also while pending';

const EXPORT = {
  format: 'stacks-watch/watchlist',
  version: 2,
  entries: Object.entries(LABELS).map(([principal, label]) => ({
    principal,
    label,
    ...(RULES[principal] ? { rules: RULES[principal].record } : {}),
  })),
};

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const app = serveBuiltAppForFile({ shell: true });
const others: TestBrowser[] = [];
afterEach(async () => {
  await Promise.all(others.splice(0).map((browser) => browser.close()));
});

async function anotherDevice(): Promise<BrowserContext> {
  const browser = await launchBrowser({ shell: true });
  others.push(browser);
  return browser.context;
}

async function openApp(context: BrowserContext, path = '/'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${app.server.url}${path}`);
  await waitForServiceWorkerControl(page);
  return page;
}

async function importFile(page: Page, content: unknown): Promise<void> {
  await page.goto(`${app.server.url}/settings`);
  await page.getByLabel('Import…').setInputFiles({
    name: 'list.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(content)),
  });
}

/** What a device shows for an address: its label on the list, its network, and its rules on its page. */
async function shownFor(page: Page, principal: string): Promise<{ label: string; network: string; rules: string }> {
  await page.goto(`${app.server.url}/address/${principal}`);
  const summary = page.locator('.alert-rules-summary');
  await summary.waitFor();
  const heading = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
  const network = (await page.locator('.split-main').textContent())?.match(/Mainnet|Testnet/)?.[0];
  return { label: heading, network: network ?? '?', rules: (await summary.textContent()) ?? '' };
}

async function expectTheList(page: Page): Promise<void> {
  for (const principal of Object.keys(LABELS)) {
    const shown = await shownFor(page, principal);
    expect(shown.rules, principal).toBe(RULES[principal]?.words ?? DEFAULT_WORDS);
    expect(shown.network, principal).toBe(NETWORKS[principal]);
    if (LABELS[principal]) expect(shown.label, principal).toBe(LABELS[principal]);
  }
}

/** A blank page with a QR decoder that knows nothing of the app (jsQR), to read codes from their pixels. */
async function qrDecoder(): Promise<Page> {
  const decoder = await app.browser.context.newPage();
  await decoder.addScriptTag({ path: createRequire(import.meta.url).resolve('jsqr') });
  return decoder;
}

/**
 * Reads the QR code on screen from its pixels, in the decoder's page: the pixels stay in the browser (carried to Node
 * as numbers, a code's megabyte of them cost seconds a code).
 */
async function decodeShownCode(page: Page, decoder: Page): Promise<string> {
  const code = page.locator('.share-code');
  // Centred, clear of the sticky header, as a user holds it up to a camera.
  await code.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const png = await code.screenshot();
  const read = await decoder.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [image.width, image.height];
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, image.width, image.height);
    const { jsQR } = window as unknown as {
      jsQR: (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
    };
    return jsQR(data, width, height)?.data ?? null;
  }, png.toString('base64'));
  if (read === null) throw new Error('the QR code on screen could not be decoded');
  return read;
}

async function showCodes(page: Page): Promise<void> {
  await page.goto(`${app.server.url}/settings`);
  await page.getByRole('button', { name: 'Show QR code and link' }).click();
  await page.locator('.share-code svg').waitFor();
}

describe('moving the list to another device', () => {
  it('the export file carries labels and alert rules, and importing it on another device merges them', async () => {
    const desktop = await openApp(await anotherDevice());
    await importFile(desktop, EXPORT);
    await desktop.getByText('Imported 4 addresses (2 with alert rules).').waitFor();
    await expectTheList(desktop);

    await desktop.goto(`${app.server.url}/settings`);
    const [download] = await Promise.all([
      desktop.waitForEvent('download'),
      desktop.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(exported.version).toBe(2);
    expect(exported.entries.find((entry: { principal: string }) => entry.principal === COLD).rules).toMatchObject({
      pending: false,
      minimums: { STX: '2500000' },
    });

    const phone = await openApp(await anotherDevice());
    await importFile(phone, exported);
    await phone.getByText('Imported 4 addresses (2 with alert rules).').waitFor();
    await expectTheList(phone);

    // A damaged rule refuses the whole file, saying which address, which rule and what is expected.
    const bad = structuredClone(exported);
    bad.entries[0].rules.pending = 'sometimes';
    await importFile(phone, bad);
    expect(await phone.getByRole('alert').textContent()).toBe(
      `Nothing was imported. In entry 1, for ${COLD}, the rule “pending” is "sometimes"; expected true or false.`,
    );
  });

  it('the QR code made on one device, decoded from its image, opens on another as a preview and merges there', async () => {
    const desktop = await openApp(await anotherDevice());
    await importFile(desktop, EXPORT);
    await desktop.getByText(/^Imported /).waitFor();
    await showCodes(desktop);
    expect(await desktop.locator('.share-step').count()).toBe(0);
    // The tests' app is served on loopback: its links name an address no phone reaches, and the page says so.
    expect(await desktop.locator('.share-loopback').textContent()).toBe(
      `A phone’s camera cannot open these links: this app is open at ${new URL(app.server.url).host}, this computer’s own address, which no other device reaches. On the other device, open Stacks Watch, choose Add address → Add from another device, and scan the code or paste the link there.`,
    );
    // An alert while the code is up: kept off it (a toast covered the code a camera reads), and not brought back
    // stale after: the inbox tells it.
    await showToast(desktop, { title: 'Received 1.00 STX · while the code was up', body: '' });
    expect(await desktop.locator('section.toasts').getAttribute('hidden')).not.toBeNull();
    expect(await desktop.locator('.toast').count()).toBe(0);
    for (const width of [390, 1366]) {
      await desktop.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await desktop.locator('.share-code').evaluate((element) => element.scrollIntoView({ block: 'center' }));
      expect((await layoutReport(desktop)).overflow).toBe(0);
      await screenshot(desktop, `list-move-qr-${width}`);
    }
    expect(await axeViolations(desktop, AXE_SOURCE)).toEqual([]);
    const decoder = await qrDecoder();
    const link = await decodeShownCode(desktop, decoder);
    expect(link.startsWith(`${app.server.url}/receive#list=`)).toBe(true);
    expect(await desktop.getByLabel('The same as a link').inputValue()).toBe(link);
    await desktop.getByRole('button', { name: 'Hide the code' }).click();
    await showToast(desktop);
    await desktop.locator('section.toasts').waitFor({ state: 'visible' });
    await expect.poll(() => desktop.locator('.toast').textContent()).toMatch(/Received 12,850\.00 STX/);
    expect(await desktop.locator('.toast').textContent()).not.toMatch(/while the code was up|more/);

    const phoneContext = await anotherDevice();
    const phone = await openApp(phoneContext);
    // The phone already watches the vault, under its own label: it must keep it.
    await importFile(phone, [{ principal: VAULT, label: 'My vault' }]);
    await phone.getByText('Imported 1 address.').waitFor();
    await phone.goto(link);
    await phone.getByRole('heading', { name: 'Check before adding' }).waitFor();
    expect(phone.url()).toBe(`${app.server.url}/receive`);
    const toAdd = phone.getByRole('list', { name: 'To add' });
    expect(await toAdd.getByRole('listitem').count()).toBe(3);
    const cold = toAdd.getByRole('listitem').filter({ hasText: LABELS[COLD] });
    expect(await cold.textContent()).toContain('Mainnet');
    expect(await cold.textContent()).toContain(`Alerts: ${RULES[COLD]!.words}`);
    const kept = phone.getByRole('list', { name: 'Kept as on this device' });
    expect(await kept.textContent()).toContain(`The other device calls it “${LABELS[VAULT]}”`);
    for (const width of [390, 1366]) {
      await phone.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      expect((await layoutReport(phone)).overflow).toBe(0);
      await screenshot(phone, `list-move-preview-${width}`, { fullPage: true });
    }
    expect(await axeViolations(phone, AXE_SOURCE)).toEqual([]);

    await phone.getByRole('button', { name: 'Add to my list' }).click();
    await phone
      .getByText(
        'Added 3 addresses (2 with alert rules); My vault kept as on this device (the other list gives another label or other rules).',
      )
      .waitFor();
    await phone.reload();
    for (const principal of [COLD, FAUCET, POOL]) {
      const shown = await shownFor(phone, principal);
      expect(shown.rules, principal).toBe(RULES[principal]?.words ?? DEFAULT_WORDS);
      expect(shown.network, principal).toBe(NETWORKS[principal]);
      if (LABELS[principal]) expect(shown.label).toBe(LABELS[principal]);
    }
    expect((await shownFor(phone, VAULT)).label).toBe('My vault');
    await decoder.close();
  });

  it('a list too long for one code becomes a sequence, assembled in any order and saying what is missing', async () => {
    const many = Array.from({ length: 36 }, (_, n) => ({
      principal: c32address(n % 2 ? 22 : 26, hash(100 + n)),
      label: `Wallet ${n} — ${'·'.repeat(n % 5)}`,
      ...(n % 4 === 0 ? { rules: { minimums: { STX: `${n + 1}000000` } } } : {}),
    }));
    const desktop = await openApp(await anotherDevice());
    await importFile(desktop, { format: 'stacks-watch/watchlist', version: 2, entries: many });
    await desktop.getByText(/^Imported 36 addresses/).waitFor();
    await showCodes(desktop);
    const step = (await desktop.locator('.share-step strong').textContent()) ?? '';
    const total = Number(/^Code 1 of (\d+)$/.exec(step)?.[1]);
    expect(total).toBeGreaterThanOrEqual(3);
    await desktop.setViewportSize({ width: 390, height: 844 });
    await desktop.locator('.share-codes').evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(desktop, 'list-move-sequence-390');
    const decoder = await qrDecoder();
    const links: string[] = [];
    for (let at = 1; at <= total; at++) {
      await desktop.getByText(`Code ${at} of ${total}`).waitFor();
      links.push(await decodeShownCode(desktop, decoder));
      if (at < total) await desktop.getByRole('button', { name: 'Next code ›' }).click();
    }

    const phone = await openApp(await anotherDevice());
    await phone.goto(links[total - 1]!);
    const progress = phone.locator('.parts-progress');
    await progress.waitFor();
    const missing = links.slice(0, -1).map((_, at) => at + 1);
    expect(await progress.textContent()).toBe(
      `1 of ${total} codes read. Still to read: codes ${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}, in any order.`,
    );
    // All but the first, backwards, then the first: never in order.
    await phone.getByLabel('Paste the other links').fill(links.slice(1, -1).reverse().join('\n'));
    await phone.getByRole('button', { name: 'Read the links' }).click();
    await phone.getByText(`${total - 1} of ${total} codes read. Still to read: code 1.`).waitFor();
    await phone.setViewportSize({ width: 390, height: 844 });
    expect((await layoutReport(phone)).overflow).toBe(0);
    await screenshot(phone, 'list-move-missing-390');
    await phone.getByLabel('Paste the other links').fill(links[0]!);
    await phone.getByRole('button', { name: 'Read the links' }).click();
    await phone.getByRole('heading', { name: '36 addresses to add' }).waitFor();
    await phone.getByRole('button', { name: 'Add to my list' }).click();
    await phone.getByText('Added 36 addresses (9 with alert rules).').waitFor();
    await phone.goto(app.server.url);
    for (const { label } of many) await phone.getByText(label.trim(), { exact: true }).first().waitFor();
    const ninth = await shownFor(phone, many[8]!.principal);
    expect(ninth.rules).toBe(`${DEFAULT_WORDS} · under 9.00 STX ignored`);
    await decoder.close();
  });

  it('a two-code list arrives by opening its links one after another, each in a new page or in one tab, and is added once', async () => {
    const twelve = Array.from({ length: 12 }, (_, n) => ({
      principal: c32address(22, hash(200 + n)),
      label: `Savings ${n + 1}`,
    }));
    const desktop = await openApp(await anotherDevice());
    await importFile(desktop, { format: 'stacks-watch/watchlist', version: 2, entries: twelve });
    await desktop.getByText('Imported 12 addresses.').waitFor();
    await showCodes(desktop);
    const links = (await desktop.getByLabel('The same as 2 links').inputValue()).split('\n');
    expect(links).toHaveLength(2);
    const rowsOn = async (page: Page) => {
      await page.goto(app.server.url);
      await page.getByText(twelve[11]!.label, { exact: true }).waitFor();
      return page.locator('ul.watch-rows > li').count();
    };

    // A new user finds the way in where they add addresses, worded as the other device's screen words it.
    const phone = await anotherDevice();
    const home = await openApp(phone);
    await home.getByRole('button', { name: 'Add address' }).click();
    await home.getByRole('link', { name: 'Add from another device' }).waitFor();
    await screenshot(home, 'list-move-entry-390');
    await home.getByRole('link', { name: 'Add from another device' }).click();
    await home.getByRole('heading', { name: 'Add from another device', level: 1 }).waitFor();
    expect(home.url()).toBe(`${app.server.url}/receive`);

    // Each link in a page of its own, as a camera app or a chat app opens them.
    const first = await phone.newPage();
    await first.goto(links[0]!);
    await first.getByText('1 of 2 codes read. Still to read: code 2.').waitFor();
    expect((await layoutReport(first)).overflow).toBe(0);
    await screenshotsEverywhere(first, 'list-move-first-code', { show: first.locator('.receive') });
    const second = await phone.newPage();
    await second.goto(links[1]!);
    await second.getByRole('heading', { name: '12 addresses to add' }).waitFor();
    await second.getByRole('button', { name: 'Add to my list' }).click();
    await second.getByText('Added 12 addresses.').waitFor();
    expect(await rowsOn(second)).toBe(12);
    // Once added, the codes are forgotten: the same link starts a new reading.
    const again = await phone.newPage();
    await again.goto(links[1]!);
    await again.getByText('1 of 2 codes read. Still to read: code 1.').waitFor();

    // Both links in one tab: the second changes only the part after "#", so no new page loads.
    const tab = await openApp(await anotherDevice(), '/receive');
    await tab.goto(links[0]!);
    await tab.getByText('1 of 2 codes read. Still to read: code 2.').waitFor();
    await tab.evaluate(() => Object.assign(window, { samePage: true }));
    await tab.goto(links[1]!);
    await tab.getByRole('heading', { name: '12 addresses to add' }).waitFor();
    expect(await tab.evaluate(() => 'samePage' in window)).toBe(true);
    expect(tab.url()).toBe(`${app.server.url}/receive`);
    await tab.getByRole('button', { name: 'Add to my list' }).click();
    await tab.getByText('Added 12 addresses.').waitFor();
    expect(await rowsOn(tab)).toBe(12);
  });

  it('a tampered, cut-off or foreign link is refused with a clear message and adds nothing', async () => {
    const desktop = await openApp(await anotherDevice());
    await importFile(desktop, EXPORT);
    await desktop.getByText(/^Imported /).waitFor();
    await showCodes(desktop);
    const link = await desktop.getByLabel('The same as a link').inputValue();
    const data = link.split('.').at(-1)!;
    const tampered = `${link.slice(0, -data.length)}${data.slice(0, 10)}${data[10] === 'Q' ? 'R' : 'Q'}${data.slice(11)}`;

    const phone = await openApp(await anotherDevice());
    for (const [bad, message] of [
      [
        tampered,
        'This code is damaged or incomplete (its check does not match): show it again on the other device and read it whole.',
      ],
      [
        link.slice(0, -12),
        'This code is damaged or incomplete (its check does not match): show it again on the other device and read it whole.',
      ],
      [
        link.slice(0, link.indexOf('list=') + 12),
        'This code or link is incomplete or damaged: show it again on the other device and read it whole.',
      ],
      [
        `${app.server.url}/receive#list=9.1.1.00000000.00000000.AAAA`,
        'This code was made by a newer version of Stacks Watch: update the app here, then read it again.',
      ],
    ] as const) {
      await phone.goto(bad);
      await phone.getByRole('alert').waitFor();
      expect(await phone.getByRole('alert').textContent()).toBe(message);
      expect(phone.url()).toBe(`${app.server.url}/receive`);
      await phone.goto('about:blank');
    }
    await phone.goto(app.server.url);
    await phone.getByRole('button', { name: 'Add address' }).waitFor();
    expect(await phone.locator('ul.watch-rows > li').count()).toBe(0);
  });
});
