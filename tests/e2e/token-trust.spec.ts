import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { control, waitForLive } from './support/alerts.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, screenshotsEverywhere } from './support/layout.ts';
import type { TxEntry } from '../../mocks/devnet/chain.ts';

/*
 * The same address must read the same on every device: Alice, watched on a phone from before her history below, and
 * moved by file to a desktop that learns of her only after it. Her own token and NFT sends lie further back than a
 * first sync's page; what came to her lately came from others. Which of her holdings she never asked for is worked
 * out here from the devnet's ledger (every transaction it mined for her, and what she held before any), never from
 * the app.
 */
const SCAM_NAME = 'Free DUSD bonus';
/** STX transfers to Alice after her own sends: more than a first sync's page of 20. */
const PADDING = 24;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let desktop: TestBrowser | undefined;
afterAll(async () => {
  await desktop?.close();
});
let phone: Page;
let wide: Page;

const accounts = () => harness.devnet.node.chain.accounts;
const mine = () => control(harness.devnet, '/devnet/mine');

async function openAlice(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Stacks Watch' }).click();
  const row = page.locator('.watch-row').filter({ has: page.getByText('Alice', { exact: true }) });
  await row.getByRole('link').click();
  await page.getByRole('heading', { level: 1, name: 'Alice' }).waitFor();
}

const holdingsCard = (page: Page) =>
  page.locator('.card').filter({ has: page.getByRole('heading', { name: 'Tokens and NFTs' }) });

/** The names of the holdings the page marks "Unsolicited", once it has judged them (shown, unfolded). */
async function markedUnsolicited(page: Page): Promise<string[]> {
  const card = holdingsCard(page);
  const toggle = card.getByRole('button', { name: /^Show \d+ unsolicited/ });
  await toggle.waitFor();
  await toggle.click();
  const marked = card.locator('.holding').filter({ has: page.locator('.badge', { hasText: /^Unsolicited$/ }) });
  await card.getByRole('button', { name: 'Hide what it never asked for' }).waitFor();
  const names = await marked
    .locator('.holding-name')
    .evaluateAll((nodes) => nodes.map((node) => node.firstChild?.textContent ?? ''));
  return names.sort();
}

/**
 * From the ledger: each token or NFT collection the address (Alice unless told) holds that no transaction it signed
 * moved or called, and that it did not hold before its first transaction (its mined transactions brought all it has).
 */
function unsolicitedByLedger(me = accounts().people[0]!.address): string[] {
  const { chain } = harness.devnet.node;
  const names = new Map<string, string>([
    ...chain.assets.tokens.map((token) => [token.assetIdentifier, token.name] as const),
    // The page names a collection by its asset's name inside the contract.
    [chain.assets.nft.assetIdentifier, `${chain.assets.nft.assetIdentifier.split('::')[1]} (NFT)`],
  ]);
  const held = new Map<string, bigint>();
  for (const token of chain.assets.tokens) {
    const balance = chain.state.ftBalance(me, token.assetIdentifier);
    if (balance > 0n) held.set(token.assetIdentifier, balance);
  }
  for (const [key, owner] of chain.state.nftOwners)
    if (owner === me) {
      const asset = key.split('#')[0]!;
      held.set(asset, (held.get(asset) ?? 0n) + 1n);
    }
  const brought = new Map<string, bigint>();
  const asked = new Set<string>();
  const received = new Set<string>();
  for (const entry of chain.transactionsOf(me) as TxEntry[]) {
    if (entry.state.kind !== 'confirmed' || entry.state.outcome.status !== 'success') continue;
    const own = entry.signed.sender === me;
    if (own && entry.signed.contractCall) asked.add(entry.signed.contractCall.contractId);
    for (const event of entry.state.outcome.events) {
      if (event.type !== 'ft_transfer' && event.type !== 'nft_transfer') continue;
      const amount = event.type === 'ft_transfer' ? event.amount : 1n;
      if (event.recipient === me) brought.set(event.asset, (brought.get(event.asset) ?? 0n) + amount);
      if (event.sender === me) brought.set(event.asset, (brought.get(event.asset) ?? 0n) - amount);
      if (own) asked.add(event.asset);
      else if (event.recipient === me) received.add(event.asset);
    }
  }
  return [...held]
    .filter(
      ([asset, amount]) =>
        received.has(asset) &&
        !asked.has(asset) &&
        !asked.has(asset.split('::')[0]!) &&
        amount <= (brought.get(asset) ?? 0n),
    )
    .map(([asset]) => names.get(asset) ?? asset)
    .sort();
}

/**
 * Holdings whose name breaks inside a word: a name squeezed beside a long amount ("333,332.333333 DUSD" at 320 px put
 * "Demo USD" a letter a line). Each line box of the name's text is counted against its words.
 */
const namesBrokenInWords = (page: Page) =>
  page.locator('.holding-name').evaluateAll((names) =>
    names.flatMap((name) => {
      const text = name.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) return [];
      const range = document.createRange();
      range.selectNodeContents(text);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      const words = (text.textContent ?? '').trim().split(/\s+/).length;
      return lines > words ? [`“${text.textContent}” on ${lines} lines`] : [];
    }),
  );

describe('token trust on a second device', () => {
  it('sets up: the phone watches the demo accounts; Alice sends tokens and an owl, then receives for a long while', async () => {
    phone = await harness.browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(harness.server.url);
    await waitForServiceWorkerControl(phone);
    await phone.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(phone);
    const { people, deployer } = accounts();
    const [alice, bob, carol] = people;
    const { chain } = harness.devnet.node;
    const owlOf = (owner: string) => [...chain.state.nftOwners].find(([, who]) => who === owner)![0].split('#')[1]!;
    // Her own sends: she asked for Demo USD and the owls, whatever came later.
    await control(harness.devnet, '/devnet/ft-transfer', {
      sender: alice!.address,
      recipient: bob!.address,
      asset: 'DUSD',
      amount: '1000000',
    });
    await control(harness.devnet, '/devnet/nft-transfer', {
      sender: alice!.address,
      recipient: bob!.address,
      id: owlOf(alice!.address),
    });
    await mine();
    for (let i = 0; i < PADDING; i++)
      await control(harness.devnet, '/devnet/transfer', {
        sender: bob!.address,
        recipient: alice!.address,
        amount: String(1_000_000 + i),
      });
    await mine();
    // What came lately: Demo USD and an owl from others, and an airdrop she never asked for.
    await control(harness.devnet, '/devnet/ft-transfer', {
      sender: bob!.address,
      recipient: alice!.address,
      asset: 'DUSD',
      amount: '2000000',
    });
    await control(harness.devnet, '/devnet/nft-transfer', {
      sender: carol!.address,
      recipient: alice!.address,
      id: owlOf(carol!.address),
    });
    await control(harness.devnet, '/devnet/token', {
      deployer: deployer.address,
      contract: 'dusd-bonus',
      name: SCAM_NAME,
      symbol: 'BONUS',
      recipient: alice!.address,
      amount: '1000000',
    });
    await mine();
    expect(unsolicitedByLedger()).toEqual([SCAM_NAME]);
  });

  it('reads the same badges on the phone that watched her and on the desktop the list moved to', async () => {
    desktop = await launchBrowser({ shell: true });
    wide = await desktop.context.newPage();
    await wide.setViewportSize({ width: 1366, height: 900 });
    await wide.goto(`${harness.server.url}/settings`);
    await waitForServiceWorkerControl(wide);
    // The phone's own export, carried over as a file.
    await phone.goto(`${harness.server.url}/settings`);
    const [download] = await Promise.all([
      phone.waitForEvent('download'),
      phone.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    const file = readFileSync((await download.path())!);
    await wide.getByLabel('Import…').setInputFiles({ name: 'list.json', mimeType: 'application/json', buffer: file });
    await wide.getByText(/^Imported \d+ addresses/).waitFor();
    const truth = unsolicitedByLedger();
    await openAlice(wide);
    expect(await markedUnsolicited(wide)).toEqual(truth);
    await openAlice(phone);
    expect(await markedUnsolicited(phone)).toEqual(truth);
    await screenshotsEverywhere(wide, 'token-trust-desktop', {
      show: holdingsCard(wide),
      check: async () => expect((await layoutReport(wide)).overflow).toBe(0),
    });
  });

  it('says "not judged yet" for a long history, and judges it when the user asks for the whole history', async () => {
    const { chain } = harness.devnet.node;
    const [alice, bob] = accounts().people;
    // Bob: more transactions than the card reads by itself, none of them his tokens'.
    for (let i = 0; i < 70; i++)
      await chain.submit(alice!.address, { kind: 'stx', recipient: bob!.address, amount: BigInt(1_000 + i), memo: '' });
    while (chain.pending().length > 0) chain.mine();
    await wide.getByRole('link', { name: 'Stacks Watch' }).click();
    await wide
      .locator('.watch-row')
      .filter({ has: wide.getByText('Bob', { exact: true }) })
      .getByRole('link')
      .click();
    await wide.getByRole('heading', { level: 1, name: 'Bob' }).waitFor();
    const card = holdingsCard(wide);
    const note = card.locator('.token-judgement');
    await expect
      .poll(() => note.textContent(), { timeout: 60_000 })
      .toMatch(
        /^Not checked yet for tokens sent without being asked \(often scams\): that takes its whole history \(\d+ of \d+ transactions read\)\. Read its whole history$/,
      );
    expect(await card.locator('.badge').count()).toBe(0);
    await screenshotsEverywhere(wide, 'token-trust-not-judged', {
      show: card,
      check: async () => {
        expect((await layoutReport(wide)).overflow).toBe(0);
        expect(await namesBrokenInWords(wide)).toEqual([]);
      },
    });
    // Offline, the history cannot be read: the device is said to be offline, the node not blamed, no browser words.
    await wide.context().setOffline(true);
    try {
      await card.getByRole('button', { name: 'Read its whole history' }).click();
      await expect
        .poll(() => note.textContent())
        .toBe(
          'Not checked yet for tokens sent without being asked (often scams): its history could not be read. This device is offline. Try again',
        );
      await screenshotsEverywhere(wide, 'token-trust-offline', { show: card });
    } finally {
      await wide.context().setOffline(false);
    }
    // Back online, the read the user asked for goes on by itself once the node's feed is live again: the card does not
    // go on saying the device is offline, and needs no second press.
    await note.waitFor({ state: 'detached', timeout: 120_000 });
    // Judged as the ledger has it (Bob held his tokens and owls before his first transaction: none unsolicited).
    expect(unsolicitedByLedger(bob!.address)).toEqual([]);
    expect(await card.locator('.badge', { hasText: 'Unsolicited' }).count()).toBe(0);
    expect(await card.getByRole('button', { name: /unsolicited/ }).count()).toBe(0);
  });
});
