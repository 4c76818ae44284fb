/**
 * The served Content Security Policy, and a hostile-content corpus (labels, memos, import files, token metadata and
 * BNS names: markup, javascript: URLs, bidi overrides, zero-width and confusable characters, long strings) through
 * every screen they reach, incl. notifications: rendered inert and legible, with zero CSP or Trusted Types
 * violations.
 */
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../src/server/csp.ts';
import { alertLog, control, notificationsShown, openWatching } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null });

/** Memos are at most 34 bytes on chain. */
const MEMOS = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '\u202Etxt.exe',
  'pa\u200By\u200Dme',
  'Раураl refund',
];
const LABELS = ['<img src=x onerror=alert(2)>', 'javascript:alert(2)', 'Раураl', 'W'.repeat(64)];
/** A token's metadata is free text: its author's. */
const TOKEN_NAME = '<img src=x onerror=alert(7)> USD Coin';
const TOKEN_SYMBOL = '\u202EDSU';
const IMPORTED = '"><svg onload=alert(3)><a href="javascript:alert(4)">x';

describe('content security policy and hostile content', () => {
  it('is served with the strict policy, and the corpus renders as text with no violation', async () => {
    const index = await fetch(harness.server.url);
    expect(index.headers.get('content-security-policy')).toBe(contentSecurityPolicy({ connect: [harness.devnet.url] }));
    const policy = index.headers.get('content-security-policy')!;
    for (const directive of [
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "require-trusted-types-for 'script'",
    ])
      expect(policy).toContain(directive);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(await index.text()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

    const [victim, friend] = harness.devnet.node.chain.accounts.people.map((person) => person.address) as [
      string,
      string,
    ];
    const violations: string[] = [];
    const dialogs: string[] = [];
    harness.browser.context.on('console', (message) => {
      if (/Content Security Policy|Trusted Type|TrustedScript|TrustedHTML/i.test(message.text()))
        violations.push(message.text());
    });
    await harness.browser.context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const page = await openWatching(harness.browser.context, harness.server.url, [
      { address: victim, label: LABELS[0]! },
      { address: friend, label: LABELS[1]! },
    ]);
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    // A label with a bidi override is refused with a reason, not stored.
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(harness.devnet.node.chain.accounts.people[2]!.address);
    await page.getByLabel('Label').fill('\u202Eevil');
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.getByText('The label contains an invisible control character').waitFor();
    await page.getByLabel('Label').fill(LABELS[2]!);
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.getByRole('listitem').filter({ hasText: LABELS[2]! }).waitFor();
    for (const label of LABELS.slice(0, 3)) await page.getByText(label, { exact: true }).first().waitFor();

    const txIds: string[] = [];
    for (const memo of MEMOS) {
      expect(Buffer.byteLength(memo)).toBeLessThanOrEqual(34);
      const sent = await control(harness.devnet, '/devnet/transfer', {
        sender: friend,
        recipient: victim,
        amount: '1000000',
        memo,
      });
      txIds.push(String(sent['tx_id']));
    }
    await control(harness.devnet, '/devnet/mine', {});

    await page.getByRole('link', { name: LABELS[0]! }).first().click();
    for (const [index, memo] of MEMOS.entries()) {
      const row = page.locator(`[data-tx="${txIds[index]}"].activity-success`);
      await row.waitFor();
      // Shown as text; format characters (bidi overrides, zero-width) are taken out so nothing reorders the line.
      expect(await row.locator('.memo').textContent()).toBe(`“${memo.replace(/[\u200B-\u200D\u202A-\u202E]/g, '')}”`);
    }
    await page.locator(`[data-tx="${txIds[0]}"] .activity-title`).click();
    await page.getByText('Open this transaction in the explorer').waitFor();
    expect(await page.locator('#main img, #main script, #main svg [onload], #main iframe, #main object').count()).toBe(
      0,
    );
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs.filter((href) => /^\s*javascript:/i.test(href ?? ''))).toEqual([]);

    // An import file is hostile content too: its markup labels arrive as text; one with a bidi override is refused
    // whole, saying why.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    const entry = (address: string, label: string) => ({ principal: address, network: 'testnet', label, addedAt: 0 });
    const file = (entries: unknown[]) => ({
      name: 'hostile.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ format: 'stacks-watch/watchlist', version: 1, entries })),
    });
    const third = harness.devnet.node.chain.accounts.people[3]!.address;
    await page.getByLabel('Import…').setInputFiles(file([entry(third, '\u202Eexe.txt')]));
    await page.getByText(/invisible control character/).waitFor();
    await page.getByLabel('Import…').setInputFiles(file([entry(third, IMPORTED)]));
    await page.getByText('Imported 1 address.').waitFor();
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await page.getByText(IMPORTED, { exact: true }).first().waitFor();
    expect(await page.locator('a[href^="javascript" i], svg[onload], #main img').count()).toBe(0);
    await page
      .getByRole('link', { name: /Inbox|unread/ })
      .first()
      .click();
    await expect.poll(() => page.locator('#main').textContent()).toContain(LABELS[0]);

    await expect.poll(async () => (await notificationsShown(page)).length).toBeGreaterThanOrEqual(1);
    const shown = await notificationsShown(page);
    const text = shown.map((item) => `${item.title}\n${item.body}`).join('\n');
    expect(text).toContain(LABELS[0]);
    expect(text).not.toMatch(/[\u202A-\u202E\u200B-\u200D]/);

    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
    // The watch on violations works: an image from elsewhere is refused, and seen.
    await page.evaluate(() => {
      const image = new Image();
      image.src = 'http://127.0.0.1:9/elsewhere.png';
      document.body.append(image);
    });
    await expect.poll(() => violations.join('\n')).toMatch(/img-src/);
    await page.close();
  });

  it('token metadata and BNS names a scammer chose render as inert text, in the page and the notification', async () => {
    // The treasury: an account the first test (same browser profile) does not already watch.
    const { treasury, deployer } = harness.devnet.node.chain.accounts;
    const victim = treasury.address;
    const scammer = deployer.address;
    const violations: string[] = [];
    const dialogs: string[] = [];
    const watchConsole = (message: { text(): string }) => {
      if (/Content Security Policy|Trusted Type|TrustedScript|TrustedHTML/i.test(message.text()))
        violations.push(message.text());
    };
    harness.browser.context.on('console', watchConsole);
    const page = await openWatching(harness.browser.context, harness.server.url, [{ address: victim, label: 'Dana' }]);
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // Airdropped tokens are silenced by default (spam); this user wants to hear of them, to see the words.
    await page.getByRole('link', { name: 'Dana' }).first().click();
    await page.getByText('What to tell').click();
    await page.getByLabel('Stay silent about tokens and NFTs it never held and did not ask for').uncheck();
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    // A BNS name no registrar would allow, as a node (or whoever sits between) could still send it.
    await control(harness.devnet, '/devnet/name', { name: '<img src=x onerror=alert(6)>.btc', owner: scammer });
    await control(harness.devnet, '/devnet/token', {
      deployer: scammer,
      contract: 'usdc-official',
      name: TOKEN_NAME,
      symbol: TOKEN_SYMBOL,
      decimals: 6,
      recipient: victim,
      amount: '5000000',
    });
    await control(harness.devnet, '/devnet/transfer', { sender: scammer, recipient: victim, amount: '1000000' });
    await control(harness.devnet, '/devnet/mine', {});

    await page.getByRole('link', { name: 'Dana' }).first().click();
    const main = page.locator('#main');
    // Sent without being asked, the token is flagged and hidden from the holdings until the user shows it.
    await page.getByRole('button', { name: /Show 1 unsolicited token/ }).click();
    // The token's own words, legible and inert: markup as text, format characters taken out.
    await expect.poll(() => main.textContent()).toContain(TOKEN_NAME);
    const shownText = (await main.textContent()) ?? '';
    expect(shownText).toContain(TOKEN_SYMBOL.replace(/[\u202A-\u202E\u200B-\u200D]/g, ''));
    expect(shownText).not.toMatch(/[\u202A-\u202E\u200B-\u200D]/);
    // The malformed name is refused: the scammer appears by its short address, never by that name.
    expect(shownText).not.toContain('onerror=alert(6)');
    expect(await page.locator('#main img, #main script, #main svg [onload], #main iframe').count()).toBe(0);

    // The alert's words (what its notification says when told on its own; in a burst it may be folded into a
    // summary's "and N more"), then everything on screen: no format characters, no malformed name.
    await expect
      .poll(async () => (await alertLog(page)).map((entry) => `${entry.title}\n${entry.body}`).join('\n'), {})
      .toMatch(/DSU/);
    const words = (await alertLog(page)).map((entry) => `${entry.title}\n${entry.body}`).join('\n');
    const text = `${words}\n${(await notificationsShown(page)).map((item) => `${item.title}\n${item.body}`).join('\n')}`;
    expect(text).not.toMatch(/[\u202A-\u202E\u200B-\u200D]/);
    expect(text).not.toContain('onerror=alert(6)');
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
    harness.browser.context.off('console', watchConsole);
    await page.close();
  });
});
