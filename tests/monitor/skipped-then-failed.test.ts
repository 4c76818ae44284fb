import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { stakerAlerter } from '../support/staker-alerter.ts';

// A stake the miners skipped as problematic in a block a re-org then orphaned, mined again on the new fork where the
// contract refused it: the ledger's last word is a failure, not a skip. Both are "failed" to the alerts, but they are
// told in other words ("Stake skipped as problematic", "Stake failed"): the second is news, never taken for a repeat
// of the first (the truth test's seed 805700, where the re-org was heard only as the new block).

const ME = 'ST29SDVDGT16E411CW40HMN9KCWKEEBMSPF55JSH1';
const TX = `0x${'86'.repeat(32)}`;
const ADDED_AT = 1_700_000_000_000;
const POX_5 = 'ST000000000000000000002AMW42H.pox-5';

const stake = (statusDetail: string, blockHeight: number | null): Activity => ({
  txId: TX,
  status: blockHeight === null ? 'pending' : 'failed',
  statusDetail,
  kind: 'contract_call',
  counterparty: POX_5,
  sender: ME,
  stxNet: -2_477n,
  fee: 2_477n,
  memo: null,
  contractCall: { contractId: POX_5, functionName: 'stake' },
  blockHeight,
  time: ADDED_AT / 1000 + 60,
});

const skipped = stake('problematic_skipped', 34);
const refused = stake('abort_by_response', 36);

/** Dave's alerter, his stake told skipped as problematic at height 34. */
async function toldSkipped(name: string) {
  // The staking read was made before the stake: its pending state is the staking alert's to tell.
  const { alerter, inbox, tray } = await stakerAlerter(name, ME, 'Dave', ADDED_AT);
  alerter.activities('testnet', ME, [stake('pending', null)], 'live');
  await alerter.idle();
  alerter.activities('testnet', ME, [skipped], 'live');
  await alerter.idle();
  const id = alertId('testnet', ME, TX);
  expect(inbox.get(id)).toMatchObject({ phase: 'failed', title: 'Stake skipped as problematic · fee 0.002477 STX' });
  /** What the tray shows of the stake now: its notification's title. */
  const onTray = () => [...tray.screen.values()].filter(({ data }) => data.ids.includes(id)).map(({ title }) => title);
  expect(onTray()).toEqual(['Stake skipped as problematic · fee 0.002477 STX']);
  return { alerter, inbox, id, onTray, shown: tray.shown };
}

describe('a stake skipped as problematic, then refused on the new fork', () => {
  it('is told failed once it is heard failing in its new block (the re-org heard only as that block)', async () => {
    const { alerter, inbox, id, onTray, shown } = await toldSkipped('skipped-then-failed-block');
    alerter.activities('testnet', ME, [refused], 'live');
    await alerter.idle();
    const entry = inbox.get(id)!;
    expect(entry).toMatchObject({ phase: 'failed', title: 'Stake failed · fee 0.002477 STX', undelivered: false });
    expect(entry.body).not.toMatch(/skipped/);
    expect(onTray()).toEqual(['Stake failed · fee 0.002477 STX']);
    // Its words change on the notification that told the skip, without a second sound.
    expect(shown.at(-1)).toMatchObject({ title: 'Stake failed · fee 0.002477 STX', renotify: false });

    // Heard again (a reconnect's sync): the same failure, nothing new to tell.
    const deliveries = entry.deliveries.length;
    alerter.activities('testnet', ME, [refused], 'sync');
    await alerter.idle();
    expect(inbox.get(id)!.deliveries).toHaveLength(deliveries);
  });

  it('is told failed when the new fork refused it at the same height (found by a sync, no revert heard)', async () => {
    const { alerter, inbox, id, onTray } = await toldSkipped('skipped-then-failed-same-height');
    alerter.activities('testnet', ME, [stake('abort_by_response', 34)], 'sync');
    await alerter.idle();
    expect(inbox.get(id)).toMatchObject({ phase: 'failed', title: 'Stake failed · fee 0.002477 STX' });
    // Learned by a sync (after a reconnect or a start): told as news from while the app was away.
    expect(onTray()).toEqual(['While you were away: Stake failed · fee 0.002477 STX']);
  });

  it('is told failed when the revert, the return to the mempool and the new block come in one batch', async () => {
    const { alerter, inbox, id, onTray } = await toldSkipped('skipped-then-failed-batch');
    alerter.reverted('testnet', ME, [skipped]);
    alerter.activities('testnet', ME, [stake('pending', null)], 'live');
    alerter.activities('testnet', ME, [refused], 'live');
    await alerter.idle();
    expect(inbox.get(id)).toMatchObject({ phase: 'failed', title: 'Stake failed · fee 0.002477 STX' });
    expect(onTray()).toEqual(['Stake failed · fee 0.002477 STX']);
  });
});
