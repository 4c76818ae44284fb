import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { stakerAlerter } from '../support/staker-alerter.ts';

// A pox-5 stake's own call is told by the staking alert ("Staked 60,000.00 STX · from cycle 142"): its pending and
// confirmed states stay in the inbox. A re-org that takes its block away undoes the stake that alert told, and no
// staking alert tells that (a lock gone before its unlock height is no staking news): the call back in the mempool is
// told as the revert, "Reverted — back in the mempool", though the revert and its return were heard in one batch (the
// truth test's seeds 28 and 38).

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const TX = `0x${'5a'.repeat(32)}`;
const ADDED_AT = 1_700_000_000_000;

const stake = (status: Activity['status'], blockHeight: number | null): Activity => ({
  txId: TX,
  status,
  kind: 'contract_call',
  counterparty: 'ST000000000000000000002AMW42H.pox-5',
  sender: ME,
  stxNet: -2_000n,
  fee: 2_000n,
  memo: null,
  contractCall: { contractId: 'ST000000000000000000002AMW42H.pox-5', functionName: 'stake' },
  blockHeight,
  time: ADDED_AT / 1000 + 60,
});

describe('a quiet stake reverted by a re-org', () => {
  it('is told as the revert, back in the mempool, though its earlier states were quiet', async () => {
    // The staking read was made before the stake: the staking alert tells what the call does.
    const { alerter, inbox, tray } = await stakerAlerter('stake-revert', ME, 'Treasury', ADDED_AT);
    alerter.activities('testnet', ME, [stake('pending', null)], 'live');
    await alerter.idle();
    alerter.activities('testnet', ME, [stake('success', 10)], 'live');
    await alerter.idle();
    const id = alertId('testnet', ME, TX);
    // Told by the staking alert: kept in the inbox, on no notification.
    expect(inbox.get(id)).toMatchObject({ phase: 'confirmed', quiet: true });
    expect(tray.shown).toEqual([]);

    // The re-org, heard with the call back in the mempool.
    alerter.reverted('testnet', ME, [stake('success', 10)]);
    alerter.activities('testnet', ME, [stake('pending', null)], 'live');
    await alerter.idle();
    const entry = inbox.get(id)!;
    expect(entry.phase).toBe('pending');
    expect(entry.quiet).toBeUndefined();
    expect(entry.title).toMatch(/^Reverted — back in the mempool: /);
    expect(entry.deliveries.at(-1)).toMatchObject({ phase: 'pending', via: 'notification' });
    expect(tray.shown.map(({ title, renotify }) => ({ title, renotify }))).toEqual([
      { title: entry.title, renotify: true },
    ]);
    expect([...tray.screen.values()].filter(({ data }) => data.ids.includes(id))).toHaveLength(1);

    // Mined again: the notification that told the revert says so, and nothing is left saying "pending".
    alerter.activities('testnet', ME, [stake('success', 11)], 'live');
    await alerter.idle();
    expect(inbox.get(id)).toMatchObject({ phase: 'confirmed' });
    expect([...tray.screen.values()].find(({ data }) => data.ids.includes(id))?.phases?.[id]).toBe('confirmed');
  });
});
