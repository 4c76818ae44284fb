/**
 * The alerts of a relay's devices in memory (engine/active-devices.ts), over stand-ins for the database: a device
 * dropped because its writes were fenced judges again, when read back, what the snapshots hold that its stored ledger
 * has not seen; one put away while idle does not.
 */
import { describe, expect, it } from 'vitest';
import { newLedger, raiseFloor } from '../../src/domain/alerts/alert-ledger.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { emptySnapshot, type Activity, type AddressSnapshot } from '../../src/domain/state/snapshot.ts';
import { ActiveDevices } from '../../src/relay/engine/active-devices.ts';
import type { SharedState } from '../../src/relay/engine/device-alerts.ts';
import type { NewState } from '../../src/relay/storage/alert-writes.ts';
import { encode } from '../../src/relay/storage/codec.ts';
import type { StoredWatch } from '../../src/relay/storage/devices.ts';

const ALICE = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const BOB = 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC';
const DEVICE = 'device-aaaaaaaaaaaaaaaaaaaa';

/** A transfer to Alice mined at height 12, above what her stored ledger has seen (height 10). */
const received: Activity = {
  txId: `0x${'ab'.repeat(32)}`,
  status: 'success',
  kind: 'token_transfer',
  counterparty: BOB,
  stxNet: 5_000_000n,
  fee: 0n,
  memo: null,
  contractCall: null,
  blockHeight: 12,
  time: 1_700_000_000,
  sender: BOB,
};

function setUp() {
  const appended: NewState[] = [];
  const shared = {
    db: {
      query: async (text: string) =>
        text.includes('FROM ledgers')
          ? [{ ledger: encode(raiseFloor(newLedger(ALICE, 'testnet', 0), 10)) }]
          : ([] as unknown[]),
    },
    writes: {
      append: async (_device: string, states: readonly NewState[]) => {
        appended.push(...states);
        return states.map((state, i) => ({ ...state.alert, cursor: String(appended.length - states.length + i + 1) }));
      },
      saveLedgers: async () => undefined,
    },
    snapshots: {
      get: (principal: string): AddressSnapshot | undefined =>
        principal === ALICE ? { ...emptySnapshot(ALICE, 'testnet'), syncedHeight: 12, recent: [received] } : undefined,
    },
    tokens: { get: () => undefined },
    names: { get: () => undefined },
    report: () => undefined,
  } as unknown as SharedState;
  const watches: StoredWatch[] = [
    { deviceId: DEVICE, network: 'testnet', principal: ALICE, rules: DEFAULT_RULES, addedAt: 1 },
  ];
  const devices = new ActiveDevices(
    shared,
    10,
    () => watches,
    (list) => [...list].flatMap((watch) => shared.snapshots.get(watch.principal) ?? []),
  );
  return { devices, appended };
}

describe('the alerts of the devices in memory', () => {
  it('a device dropped because its writes were fenced catches up from the snapshots when read again', async () => {
    const { devices, appended } = setUp();
    devices.make(DEVICE);
    devices.drop([DEVICE], () => true);
    expect(devices.has(DEVICE)).toBe(false);
    const again = devices.open(DEVICE);
    await again.alerter.idle();
    await expect
      .poll(() => appended.map((state) => [state.entry.txId, state.entry.phase]))
      .toEqual([[received.txId, 'confirmed']]);
  });

  it('a device put away while idle is read again without a catch-up: nothing is judged again', async () => {
    const { devices, appended } = setUp();
    await devices.make(DEVICE).alerter.idle();
    devices.drop([DEVICE], () => false);
    const again = devices.open(DEVICE);
    await again.alerter.idle();
    expect(appended).toEqual([]);
  });
});
