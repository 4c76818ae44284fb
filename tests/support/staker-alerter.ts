import { createStore } from 'idb-keyval';
import { emptySnapshot, type AddressSnapshot } from '../../src/domain/state/snapshot.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { memoryTray } from '../monitor/truth/tray.ts';
import { stakingPosition } from './staking-position.ts';

/**
 * The real Alerter for one watched testnet staker, `label`, added at `addedAt` and seen two minutes later, over fresh
 * IndexedDB stores named after `name`, telling what it stores on a memory tray. Its staking was read before its stake
 * (synced at height 5): the staking alert tells what its pox-5 calls do, their own alerts stay quiet.
 */
export async function stakerAlerter(name: string, principal: string, label: string, addedAt: number) {
  const inbox = new Inbox(createStore(`${name}-inbox`, 'alerts'));
  const tray = memoryTray(inbox);
  const snapshot: AddressSnapshot = {
    ...emptySnapshot(principal, 'testnet'),
    staking: stakingPosition(),
    syncedHeight: 5,
  };
  const alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`${name}-ledgers`, 'by-address')),
    inbox,
    settings: new AlertSettingsStore(createStore(`${name}-settings`, 'records')),
    watched: (network, watched) => (network === 'testnet' && watched === principal ? { addedAt } : undefined),
    snapshot: () => snapshot,
    text: { label: () => label, nameOf: () => null, token: () => undefined },
    deliver: tray.deliver,
    now: () => addedAt + 120_000,
  });
  await alerter.start([]);
  alerter.baseline('testnet', principal, [], 5);
  return { alerter, inbox, tray };
}
