import { relayDataDir } from './pglite-template.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import type { RunningRelay } from '../../src/relay/relay.ts';
import LOOKALIKES from '../fixtures/lookalikes.json' with { type: 'json' };
import type { tempDir } from './harness.ts';
import { call, eventually, registerDevice, relayInProcess, startPushStandIn, type PushStandIn } from './harness.ts';

/**
 * The relay's own words are what a browser shows when no worker words the push (Safari's declarative push) and what
 * a device shows when its names cannot be read: a lookalike's dust must read as a possible address-poisoning there
 * too, judged from the device's watched addresses as the open app judges it.
 */
interface Told {
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

let devnet: RunningDevnet;
let standIn: PushStandIn;
let relay: RunningRelay;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  standIn = await startPushStandIn();
  dir = await relayDataDir('relay-poisoning-');
  relay = await relayInProcess(devnet.url, dir.path, ['--push-allow', standIn.origin]);
});

afterAll(async () => {
  await relay?.close();
  standIn?.close();
  await devnet?.close();
  await dir?.remove();
});

describe('the relay’s words for a lookalike’s transfer', () => {
  it('warn of address poisoning; an honest transfer reads as received', async () => {
    const [alice, bob, carol] = devnet.node.chain.accounts.people.map((person) => person.address) as [
      string,
      string,
      string,
    ];
    // The user's cold wallet has Carol's first 6 and last 4 characters (tests/support/lookalike.ts found it).
    const cold = LOOKALIKES.devnet[carol as keyof typeof LOOKALIKES.devnet].address;
    const { id, secret, registered } = await registerDevice(relay.url, relay.vapidPublicKey, standIn, [alice, cold]);
    expect(registered.status).toBe(201);
    await eventually('the relay to follow the devnet', async () => {
      const health = (await call(`${relay.url}/health`)).body as { networks?: { testnet?: { connected: boolean } } };
      return health.networks?.testnet?.connected ? true : undefined;
    });
    await relay.engine.idle();

    const dust = await devnet.node.chain.submit(carol, { kind: 'stx', recipient: alice, amount: 1n, memo: '' });
    const honest = await devnet.node.chain.submit(bob, { kind: 'stx', recipient: alice, amount: 1_000_000n, memo: '' });
    devnet.node.chain.mine();
    const told = await eventually('both transfers confirmed in the relay’s feed', async () => {
      const feed = await call(`${relay.url}/v1/devices/${id}/alerts`, { secret });
      const alerts = (feed.body?.['alerts'] ?? []) as (Told & { phase: string })[];
      const confirmed = (txId: string) =>
        alerts.find((alert) => alert.id === `testnet:${alice}:${txId}` && alert.phase === 'confirmed');
      const both = [confirmed(dust.signed.txId), confirmed(honest.signed.txId)];
      return both.every(Boolean) ? (both as Told[]) : undefined;
    });
    const short = `${carol.slice(0, 6)}…${carol.slice(-4)}`;
    expect(told[0]!.title).toBe(`Possible address-poisoning: ${short} looks like ${short}`);
    expect(told[0]!.body).toContain(`Sent by ${carol}, not ${cold}`);
    expect(told[1]!.title).toMatch(/^Received 1\.00 STX/);
  });
});
