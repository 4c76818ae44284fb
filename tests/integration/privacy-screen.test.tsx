import { screen, waitFor, within } from '@testing-library/react';
import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { PrivacyRecord } from '../../src/app/privacy-record.ts';
import { parsePrincipal } from '../../src/domain/address/address.ts';
import { middleEllipsis } from '../../src/domain/address/middle-ellipsis.ts';
import { MemoryDisclosureStore } from '../../src/store/disclosure-store.ts';
import { renderApp } from './render-app.tsx';

const ALICE = c32address(22, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');
const GONE = c32address(22, '1111111111111111111111111111111111111111');
const NODE = 'https://api.mainnet.hiro.so';

describe('the “Who knows what” screen', () => {
  it('names each host’s role, says what it could learn, lists the addresses by label, and clears', async () => {
    const store = new MemoryDisclosureStore();
    let record!: PrivacyRecord;
    const { user, controller } = await renderApp('/privacy', undefined, (stores) => {
      record = new PrivacyRecord({ store, watchlist: stores.watchlist, ownOrigin: window.location.origin });
      return { privacy: record };
    });
    const stop = record.start();
    expect(await screen.findByText(/No other host has been contacted/)).toBeTruthy();

    for (const [address, label] of [
      [ALICE, 'Cold wallet'],
      [GONE, ''],
    ] as const) {
      const principal = parsePrincipal(address);
      if (!principal.ok) throw new Error('test address');
      controller.add(principal.value, label);
    }
    record.note({
      via: 'http',
      url: `${NODE}/extended/v3/principals/${ALICE}/balances/stx`,
      body: null,
      purpose: 'chain',
    });
    record.note({ via: 'socket', url: NODE, topics: [`address-transaction:${GONE}`], purpose: 'live' });
    record.note({ via: 'http', url: `${window.location.origin}/stacks-watch-config.json`, body: null, purpose: 'app' });
    controller.remove(GONE);
    await record.flush();

    const card = await screen.findByRole('region', { name: 'api.mainnet.hiro.so' });
    // The card can show before its role (read from the node settings) and the list it reads have caught up: polled.
    expect(await within(card).findByText('Mainnet node · Hiro public API')).toBeTruthy();
    expect(
      await within(card).findByText(
        'The node at api.mainnet.hiro.so was asked about these 2 addresses; it also sees your IP address and when the app is open.',
      ),
    ).toBeTruthy();
    await waitFor(() =>
      expect(
        within(card)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([expect.stringMatching(/^Cold wallet/), expect.stringContaining('no longer watched')]),
    );
    const items = within(card).getAllByRole('listitem');
    expect(items[0]!.textContent).toContain(middleEllipsis(ALICE));
    expect(screen.getAllByRole('region')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Clear this record' }));
    await user.click(screen.getByRole('button', { name: 'Clear it' }));
    expect(await screen.findByText('Cleared. Requests from now on are recorded afresh.')).toBeTruthy();
    expect(screen.queryByRole('region')).toBeNull();
    expect(await store.load()).toEqual([]);
    stop();
  });

  it('shows a host only tried apart from one contacted: never reached, and what the tries were', async () => {
    const store = new MemoryDisclosureStore();
    let record!: PrivacyRecord;
    await renderApp('/privacy', undefined, (stores) => {
      record = new PrivacyRecord({ store, watchlist: stores.watchlist, ownOrigin: window.location.origin });
      return { privacy: record };
    });
    const stop = record.start();
    const url = `https://typo.example/extended/v3/principals/${ALICE}/balances/stx`;
    for (let i = 0; i < 2; i++) record.note({ via: 'http', url, body: null, purpose: 'test', answered: false });
    await record.flush();
    const card = await screen.findByRole('region', { name: 'typo.example' });
    expect(card.textContent).toContain('Never reached.');
    expect(card.textContent).toContain('The app tried typo.example but never reached it');
    expect(card.textContent).not.toMatch(/was contacted|sees your IP/);
    expect(card.textContent).not.toMatch(/Contacted/);
    expect(card.textContent).toContain('Tried 2 times without an answer');
    expect(within(card).queryAllByRole('listitem')).toEqual([]);
    stop();
  });

  it('counts what a host may have read of a request given up on: the address it named, "never answered"', async () => {
    const store = new MemoryDisclosureStore();
    let record!: PrivacyRecord;
    const { controller } = await renderApp('/privacy', undefined, (stores) => {
      record = new PrivacyRecord({ store, watchlist: stores.watchlist, ownOrigin: window.location.origin });
      return { privacy: record };
    });
    const stop = record.start();
    const principal = parsePrincipal(ALICE);
    if (!principal.ok) throw new Error('test address');
    controller.add(principal.value, 'Cold wallet');
    const url = `https://slow.example/extended/v3/principals/${ALICE}/balances/stx`;
    record.note({ via: 'http', url, body: null, purpose: 'test', answered: false, gaveUp: true });
    record.note({ via: 'http', url, body: null, purpose: 'test', answered: false });
    await record.flush();
    const card = await screen.findByRole('region', { name: 'slow.example' });
    expect(card.textContent).toContain('Never answered.');
    expect(card.textContent).not.toContain('never reached it');
    expect(card.textContent).toContain('Given up on once after waiting for an answer');
    expect(card.textContent).toContain('Tried once without an answer');
    await waitFor(() =>
      expect(
        within(card)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([expect.stringMatching(/^Cold wallet/)]),
    );
    // Kept as it was noted: read back from the store, the record says the same.
    expect((await store.load())[0]).toMatchObject({
      contact: null,
      gaveUp: { count: 1 },
      unanswered: { count: 1 },
      addresses: { [ALICE]: { count: 1 } },
    });
    stop();
  });

  it('lists a relay on the app’s own site with what it was sent, and leaves out only the app’s own files', async () => {
    const store = new MemoryDisclosureStore();
    let record!: PrivacyRecord;
    const { controller } = await renderApp('/privacy', undefined, (stores) => {
      record = new PrivacyRecord({ store, watchlist: stores.watchlist, ownOrigin: window.location.origin });
      return { privacy: record };
    });
    const stop = record.start();
    const principal = parsePrincipal(ALICE);
    if (!principal.ok) throw new Error('test address');
    controller.add(principal.value, 'Cold wallet');
    // One server, one origin: the app's files, and its relay, told the watched address and the push endpoint.
    record.note({ via: 'http', url: `${window.location.origin}/stacks-watch-config.json`, body: null, purpose: 'app' });
    record.note({
      via: 'http',
      url: `${window.location.origin}/relay/v1/devices`,
      body: JSON.stringify({ endpoint: 'https://push.example/abc', watch: [{ network: 'mainnet', principal: ALICE }] }),
      purpose: 'relay',
    });
    await record.flush();
    const card = await screen.findByRole('region', { name: window.location.host });
    await waitFor(() =>
      expect(
        within(card)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([expect.stringMatching(/^Cold wallet/)]),
    );
    expect(card.textContent).toMatch(/relay/i);
    expect(screen.getByText(/^Not listed: the app’s own files and settings/).textContent).not.toMatch(
      /only serves the app’s files/,
    );
    expect(screen.getAllByRole('region')).toHaveLength(1);
    stop();
  });
});
