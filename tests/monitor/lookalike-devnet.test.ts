/**
 * A dust transfer from a lookalike of a watched address, sent on the devnet and seen through the real engine and
 * alerter: it is flagged as possible address-poisoning, never told as "Received"; an honest transfer still is.
 */
import { createStore } from 'idb-keyval';
import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { poisoningSuspect, trustedAddresses } from '../../src/domain/address/lookalike.ts';
import type { ActivitySink } from '../../src/monitor/ports.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import LOOKALIKES from '../fixtures/lookalikes.json' with { type: 'json' };
import { rig, serveDevnetThroughMsw } from './harness.ts';
import { memoryTray } from './truth/tray.ts';

serveDevnetThroughMsw();

describe('address poisoning on the devnet', () => {
  it('a lookalike’s dust is flagged, not celebrated; an honest transfer is told as received', async () => {
    let alerter: Alerter | null = null;
    const forward: ActivitySink = {
      activities: (...args) => alerter!.activities(...args),
      baseline: (...args) => alerter!.baseline(...args),
      reverted: (...args) => alerter!.reverted(...args),
      balance: (...args) => alerter!.balance(...args),
      forked: (...args) => alerter!.forked(...args),
      wantsDetail: (...args) => alerter!.wantsDetail(...args),
    };
    const { devnet, monitor, book, until, control } = rig({ sink: forward });
    const [victim, friend, poisoner] = devnet.chain.accounts.people.map((person) => person.address) as [
      string,
      string,
      string,
    ];
    // The user's cold wallet: an address with the poisoner's first 6 and last 4 characters (found by a vanity search,
    // see tests/support/lookalike.ts); recomputed if the devnet's accounts ever change.
    const cold = LOOKALIKES.devnet[poisoner as keyof typeof LOOKALIKES.devnet];
    expect(cold, `no lookalike recorded for ${poisoner}: compute one with validLookalike()`).toBeDefined();
    expect(c32address(26, cold!.hash)).toBe(cold!.address);
    expect([cold!.address.slice(0, 6), cold!.address.slice(-4)]).toEqual([poisoner.slice(0, 6), poisoner.slice(-4)]);

    const labels = new Map([
      [victim, 'Savings'],
      [cold!.address, 'Cold wallet'],
    ]);
    const watched = [...labels.keys()];
    const inbox = new Inbox(createStore('inbox-poisoning', 'alerts'));
    const { shown, deliver } = memoryTray(inbox);
    alerter = new Alerter({
      ledgers: new AlertLedgerStore(createStore('ledgers-poisoning', 'by-address')),
      inbox,
      settings: new AlertSettingsStore(createStore('settings-poisoning', 'records')),
      watched: (network, principal) => (network === 'testnet' && labels.has(principal) ? { addedAt: 0 } : undefined),
      snapshot: (principal) => book.get(principal),
      text: {
        label: (principal) => labels.get(principal) ?? '',
        nameOf: (principal) => labels.get(principal) ?? null,
        token: () => undefined,
        suspect: (activity, principal) =>
          poisoningSuspect(
            activity,
            principal,
            trustedAddresses(
              watched,
              watched.map((each) => book.get(each)),
            ),
          ),
      },
      deliver,
    });
    await alerter.start([]);
    monitor.start(watched);
    await until(victim, (snapshot) => snapshot.stx !== null);

    await control('/devnet/transfer', { sender: poisoner, recipient: victim, amount: '1', memo: 'airdrop' });
    await control('/devnet/transfer', { sender: friend, recipient: victim, amount: '1000000' });
    await control('/devnet/mine', {});
    await until(victim, (snapshot) => snapshot.recent.filter((activity) => activity.blockHeight !== null).length >= 2);
    await monitor.settled();
    await expect.poll(() => shown.filter((content) => !content.title.endsWith('pending')).length).toBeGreaterThan(1);
    await alerter.idle();

    const titles = shown.map((content) => content.title);
    const flagged = shown.filter((content) => content.title.startsWith('Possible address-poisoning'));
    expect(flagged.length, titles.join('\n')).toBeGreaterThan(0);
    for (const content of flagged) {
      expect(content.title).toMatch(/looks like Cold wallet$/);
      expect(content.body).toContain(`Sent by ${poisoner}, not ${cold!.address}`);
    }
    // The dust is never celebrated: no notification says "Received" 0.000001 STX, pending or not.
    expect(titles.filter((title) => /Receiv\w+ 0\.000001 STX/.test(title))).toEqual([]);
    expect(titles).toContain('Received 1.00 STX');
  });
});
