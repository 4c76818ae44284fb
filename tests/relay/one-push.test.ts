import { relayDataDir } from './pglite-template.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import type { RunningRelay } from '../../src/relay/relay.ts';
import { call, eventually, registerDevice, relayInProcess, startPushStandIn, type PushStandIn } from './harness.ts';
import { PushProxy } from './push-proxy.ts';
import { Observed } from './scenario.ts';

interface Side {
  readonly id: string;
  readonly phase: string;
  readonly cursor: string;
  readonly txId: string | null;
}

/** A push as the relay sends it without an app origin: `{ v: 1, alert, otherSides? }`. */
interface Push {
  readonly v: number;
  readonly alert: Side;
  readonly otherSides?: readonly Side[];
}

const sidesOf = (push: Push): Side[] => [push.alert, ...(push.otherSides ?? [])];

let devnet: RunningDevnet;
let standIn: PushStandIn;
let proxy: PushProxy;
let relay: RunningRelay;
let dir: Awaited<ReturnType<typeof relayDataDir>>;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  standIn = await startPushStandIn();
  proxy = await new PushProxy(standIn.origin).start();
  dir = await relayDataDir('relay-one-push-');
  relay = await relayInProcess(devnet.url, dir.path, ['--push-allow', proxy.origin]);
});

afterAll(async () => {
  await relay?.close();
  await proxy?.close();
  standIn?.close();
  await devnet?.close();
  await dir?.remove();
});

describe('a device watching several sides of one transaction', () => {
  it('gets one push per transaction in each state it reaches, carrying every side; each side stored and told once', async () => {
    const { chain } = devnet.node;
    const [alice, bob, carol] = chain.accounts.people.map((account) => account.address) as [string, string, string];
    const vault = chain.accounts.vault.address;
    const observed = new Observed(chain);
    for (const principal of [bob, carol, vault]) observed.watch(principal);
    // Subscribed through the proxy, which counts the pushes and refuses one.
    const proxied = {
      subscribe: async (key: string) => {
        const subscription = await standIn.subscribe(key);
        return { ...subscription, endpoint: proxy.endpointFor(subscription.endpoint) };
      },
    };
    const device = await registerDevice(relay.url, relay.vapidPublicKey, proxied, [bob, carol, vault]);
    expect(device.registered.status).toBe(201);
    await eventually('the relay to follow the devnet', async () => {
      const health = (await call(`${relay.url}/health`)).body as { networks?: { testnet?: { connected: boolean } } };
      return health.networks?.testnet?.connected ? true : undefined;
    });
    await relay.engine.idle();

    const pushes = async (): Promise<Push[]> =>
      (await standIn.notifications(device.clientHash)).map((text) => JSON.parse(text) as Push);
    /** Every alert the devnet's ledger says the device must be told, pushed in that state. */
    const delivered = (what: string) =>
      eventually(`the pushes to tell ${what}`, async () => {
        const expected = observed.expected();
        const last = new Map<string, string>();
        for (const push of await pushes()) for (const side of sidesOf(push)) last.set(side.id, side.phase);
        return expected.size > 0 && [...expected].every(([id, phase]) => last.get(id) === phase) ? true : undefined;
      });

    // A transfer between two watched addresses, a call by one to a watched contract, and a transfer to a watched
    // address sponsored by another (its signer unwatched). The first push is refused once: retried, still one push.
    proxy.refusals.push({ status: 503 });
    const transfer = await observed.transfer(bob, carol, 1_000_000n);
    const deposit = observed.track(await chain.submit(bob, { kind: 'vault-deposit', vault, amount: 2_000_000n }));
    const sponsored = observed.track(
      await chain.submit(alice, { kind: 'stx', recipient: carol, amount: 3_000n, memo: '' }, 300n, { sponsor: bob }),
    );
    await delivered('every side pending');
    chain.mine();
    await delivered('every side confirmed');
    await relay.sender.idle();

    const all = await pushes();
    const txIds = [transfer, deposit, sponsored].map((entry) => entry.signed.txId);
    const expected = observed.expected();
    const sidesOfTx = (txId: string) => [...expected.keys()].filter((id) => id.endsWith(`:${txId}`)).sort();
    // Each transaction has two watched sides by the devnet's ledger (the sponsor's: it paid the fee).
    for (const txId of txIds) expect(sidesOfTx(txId), txId).toHaveLength(2);
    // One push per transaction and state, carrying exactly the sides the ledger names.
    const states = all.map((push) => `${push.alert.txId} ${push.alert.phase}`);
    expect(states.sort()).toEqual(txIds.flatMap((txId) => [`${txId} confirmed`, `${txId} pending`]).sort());
    for (const push of all) {
      const sides = sidesOf(push);
      expect(push.v).toBe(1);
      expect(sides.map((side) => side.id).sort()).toEqual(sidesOfTx(push.alert.txId!));
      expect(new Set(sides.map((side) => side.phase))).toEqual(new Set([push.alert.phase]));
    }
    expect(proxy.seen.map((seen) => seen.status)).toEqual([503, ...all.map(() => 201)]);

    // The device's log (its outbox, and the alerts feed a catch-up reads): each side's state once, each told.
    const listed = await call(`${relay.url}/v1/devices/${device.id}/alerts`, { secret: device.secret });
    const logged = (listed.body?.['alerts'] as Side[]).map((side) => `${side.id} ${side.phase}`);
    expect(logged.sort()).toEqual(
      all.flatMap((push) => sidesOf(push).map((side) => `${side.id} ${side.phase}`)).sort(),
    );
    const rows = await relay.db.query<{ status: string; tries: number }>(
      'SELECT status, tries FROM deliveries WHERE device_id = $1',
      [device.id],
    );
    expect(rows.map((row) => row.status)).toEqual(rows.map(() => 'told'));
    // The refused push's sides were tried twice, each on its own row; every other side once.
    expect(rows.map((row) => Number(row.tries)).sort()).toEqual([...rows.map(() => 0).slice(2), 1, 1]);
  });
});
