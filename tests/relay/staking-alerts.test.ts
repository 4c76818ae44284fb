import { relayDataDir } from './pglite-template.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import type { AddressSnapshot } from '../../src/domain/state/snapshot.ts';
import type { RunningRelay } from '../../src/relay/relay.ts';
import { decode } from '../../src/relay/storage/codec.ts';
import type { tempDir } from './harness.ts';
import {
  call,
  eventually,
  pushedSides,
  registerDevice,
  relayInProcess,
  startPushStandIn,
  type PushStandIn,
} from './harness.ts';

/** The relay runs the same engine: a staker's rewards becoming claimable, with no transaction, are told there too. */
interface Told {
  readonly id: string;
  readonly title: string;
}

let devnet: RunningDevnet;
let standIn: PushStandIn;
let relay: RunningRelay;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  standIn = await startPushStandIn();
  dir = await relayDataDir('relay-staking-');
  relay = await relayInProcess(devnet.url, dir.path, ['--push-allow', standIn.origin]);
});

afterAll(async () => {
  await relay?.close();
  standIn?.close();
  await devnet?.close();
  await dir?.remove();
});

/** A principal's staking as the relay has stored it: undefined before its first read. */
async function storedStaking(running: RunningRelay, principal: string): Promise<AddressSnapshot['staking']> {
  const [row] = await running.db.query<{ snapshot: string }>('SELECT snapshot FROM progress WHERE principal = $1', [
    principal,
  ]);
  return row ? decode<AddressSnapshot>(row.snapshot).staking : undefined;
}

const post = async (path: string, body: unknown) =>
  (await fetch(`${devnet.url}${path}`, { method: 'POST', body: JSON.stringify(body) })).json() as Promise<
    Record<string, unknown>
  >;

describe('staking alerts from the relay', () => {
  it('tell a stake with its cycle and claimable sBTC as the app does, from the devnet ledger', async () => {
    const chain = devnet.node.chain;
    const alice = chain.accounts.people[0]!.address;
    const { id, secret, registered, clientHash } = await registerDevice(relay.url, relay.vapidPublicKey, standIn, [
      alice,
    ]);
    expect(registered.status).toBe(201);
    await eventually('the relay to follow the devnet', async () => {
      const health = (await call(`${relay.url}/health`)).body as { networks?: { testnet?: { connected: boolean } } };
      return health.networks?.testnet?.connected ? true : undefined;
    });
    await relay.engine.idle();
    const told = async (title: RegExp) =>
      eventually(`the relay to tell ${String(title)}`, async () => {
        const feed = await call(`${relay.url}/v1/devices/${id}/alerts`, { secret });
        const alerts = (feed.body?.['alerts'] ?? []) as Told[];
        const found = alerts.find((alert) => title.test(alert.title));
        return found;
      });

    // Past Alice's first sync: a transfer to her is told (what the relay found at its first read is history).
    const bob = chain.accounts.people[1]!.address;
    await chain.submit(bob, { kind: 'stx', recipient: alice, amount: 1_000_000n, memo: '' });
    chain.mine();
    await told(/^Received 1\.00 STX/);

    await post('/devnet/stake', { staker: alice, amount: '60000000000', cycles: 3 });
    // The relay reads nothing of an address to follow it: it reads Alice's staking when her call enters the mempool,
    // so that the stake it makes is a change from what was read (a block takes seconds; the devnet mines at once).
    await eventually("the relay to read Alice's staking", async () =>
      (await storedStaking(relay, alice)) === undefined ? undefined : true,
    );
    chain.mine();
    const stake = chain.transactionsOf(alice)[0]!;
    const burn = stake.state.kind === 'confirmed' ? stake.state.block.burnHeight : 0;
    const fromCycle = Number((await (await fetch(`${devnet.url}/v2/pox`)).json()).current_cycle.id) + 1;
    expect(burn).toBeGreaterThan(0);
    await told(new RegExp(`^Staked 60,000\\.00 STX · from cycle ${fromCycle}$`));
    // One act, one push: the stake call is in the device's log for its catch-up, never pushed on its own.
    expect(await told(/^Staked STX( · |$)/)).toMatchObject({ quiet: true });
    const pushed = async () =>
      (await standIn.notifications(clientHash))
        .flatMap((text) => pushedSides<Told>(text))
        .map((push) => push.alert.title);
    await eventually('the stake to be pushed', async () =>
      (await pushed()).some((title) => /^Staked \d/.test(title)) ? true : undefined,
    );
    expect((await pushed()).filter((title) => title.startsWith('Staked STX'))).toEqual([]);

    await post('/devnet/cycles', { count: 2 });
    chain.mine();
    const position = chain.state.staking.stx.get(alice)!;
    const sats = position.accrued - position.claimed;
    expect(sats).toBeGreaterThan(0n);
    const words = `0.${sats.toString().padStart(8, '0')} sBTC`;
    await told(new RegExp(`^sBTC rewards claimable: ${words.replace('.', '\\.')}$`));

    // The pause admin stops claims for good: told with what Alice has left to claim, as the ledger holds it.
    await post('/devnet/staking/pause', {});
    chain.mine();
    expect(chain.state.staking.paused).toBe(true);
    const left = chain.state.staking.stx.get(alice)!;
    const waiting = `0.${(left.accrued - left.claimed).toString().padStart(8, '0')} sBTC`;
    await told(new RegExp(`^Staking rewards paused: ${waiting.replace('.', '\\.')} claimable cannot be claimed$`));
  });

  it('tell a bond that matured as the app does, once, in the bond’s words', async () => {
    const chain = devnet.node.chain;
    const dave = chain.accounts.people[3]!.address;
    const { id, secret, registered } = await registerDevice(relay.url, relay.vapidPublicKey, standIn, [dave]);
    expect(registered.status).toBe(201);
    const alerts = async () =>
      ((await call(`${relay.url}/v1/devices/${id}/alerts`, { secret })).body?.['alerts'] ?? []) as Told[];
    /** Dave's bond as the relay has stored it: undefined before his first staking read, null while in no bond. */
    const storedBond = async () => {
      const staking = await storedStaking(relay, dave);
      return staking === undefined ? undefined : (staking?.bonds[0]?.status ?? null);
    };

    await post('/devnet/staking/bond', { allowlist: [{ staker: dave, maxSats: '100000000' }] });
    chain.mine();
    const bond = [...chain.state.staking.bonds.values()].at(-1)!;
    await post('/devnet/staking/bond-register', {
      staker: dave,
      index: bond.index,
      ustx: '20000000000',
      type: 'l1',
      sats: '50000000',
    });
    // Dave read before his bond moves (when his registration enters the mempool): what a first read finds is history,
    // so a maturity found by it is never told.
    await eventually('the relay to have read Dave', async () => ((await storedBond()) === null ? true : undefined));
    const book = chain.state.staking;
    // Block by block until the bond runs, each waited for until the relay holds what the ledger says of the bond: the
    // relay must have known it enrolled or running to tell its end (the feed's blocks arrive when they arrive).
    let status: string;
    do {
      chain.mine();
      status = book.bondStatus(book.bondPositions.get(dave)!, chain.tip.burnHeight);
      await eventually(`the relay to store Dave's bond ${status}`, async () =>
        (await storedBond()) === status ? true : undefined,
      );
    } while (status !== 'running');
    await post('/devnet/cycles', { count: 14 });
    chain.mine();
    expect(chain.state.staking.bondStatus(chain.state.staking.bondPositions.get(dave)!, chain.tip.burnHeight)).toBe(
      'unlocked',
    );
    const title = `Bond ${bond.index} matured: 20,000.00 STX unlocked`;
    await eventually(`the relay to tell "${title}"`, async () =>
      (await alerts()).find((alert) => alert.title === title),
    );
    chain.mine();
    await relay.engine.idle();
    expect((await alerts()).filter((alert) => /^(Bond|Unlocked)/.test(alert.title)).map((a) => a.title)).toEqual([
      title,
    ]);
  });
});
