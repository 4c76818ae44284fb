/**
 * The seeded scenario of the relay's fault test (storage-outage.test.ts): devices, devnet traffic with re-orgs, the
 * push service answering 503 for longer than the old retry budget, the database away for a while, and where the
 * relay runs as its own process a SIGKILL. It checks every device against the devnet's ledger (the truth test's
 * oracle): every alert pushed in its final state, in the catch-up log, and a stored state pushed twice only in the
 * windows docs/relay.md gives.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { SeededRandom } from '../../mocks/devnet/random.ts';
import type { RunningDevnet } from '../../mocks/devnet/server.ts';
import { call, eventually, pushedSides, random, type PushStandIn } from './harness.ts';
import type { PushProxy } from './push-proxy.ts';
import { OLD_BUDGET_TRIES } from './scaled-time.ts';
import { Observed } from './scenario.ts';

const DEVICES = 4;
const STEPS = 48;
/** Steps of the run the push service answers 503, the database is away, and the relay is killed (then restarted). */
const PUSH_OUTAGE = { from: 3, to: 11 };
const DATABASE_OUTAGE = { from: 12, to: 24 };
const KILLED = { from: 30, to: 36 };

interface Pushed {
  readonly alert: { id: string; phase: string; cursor: string };
}

/** Where the scenario runs: the devnet, the push stand-in (which decrypts), and the proxy in front of it. */
export interface OutageWorld {
  readonly devnet: RunningDevnet;
  readonly standIn: PushStandIn;
  /** Answers 503 while the push service is down; tells which pushes the relay gave up waiting for. */
  readonly proxy: PushProxy;
}

/** A relay under test, whichever way it runs, and the database fault it can be put through. */
export interface RelayUnderTest {
  readonly url: string;
  readonly vapidPublicKey: string;
  /** What the relay logged (the JSON lines an operator reads), to wait on. */
  readonly reported: () => string;
  databaseDown(): Promise<void>;
  databaseUp(): Promise<void>;
  /**
   * SIGKILL, and started again later; undefined where the relay runs in the test's process. Resolves to the states
   * (`deviceId cursor`) its database still held queued: the documented window, whose states may be pushed once more.
   */
  readonly kill?: () => Promise<ReadonlySet<string>>;
  readonly restart?: () => Promise<void>;
  close(): Promise<void>;
}

export interface Counts {
  seed: number;
  alerts: number;
  pushes: number;
  repeats: number;
  /** Of the repeats, those of a push whose answer the relay gave up waiting for (docs/relay.md). */
  afterNoAnswer: number;
  /** 503 answers during the push outage, and the alerts they refused (each more than the old budget's tries). */
  refusals: number;
  refusedAlerts: number;
  reorgs: number;
  transfers: number;
}

/**
 * The phase of the newest state of `id` pushed (the highest cursor): the last word even when an older copy, given up
 * on by the relay and sent again, reached the service after it.
 */
const newestPushed = (list: readonly Pushed[], id: string): string | undefined =>
  list
    .filter((push) => push.alert.id === id)
    .reduce<Pushed | undefined>(
      (newest, push) => (!newest || Number(push.alert.cursor) > Number(newest.alert.cursor) ? push : newest),
      undefined,
    )?.alert.phase;

/** 503 answers since `from` in the proxy's record, by Topic (one per device and alert). */
function refusedSince(proxy: PushProxy, from: number): Map<string, number> {
  const refused = new Map<string, number>();
  for (const seen of proxy.seen.slice(from))
    if (seen.status === 503) refused.set(seen.topic ?? '', (refused.get(seen.topic ?? '') ?? 0) + 1);
  return refused;
}

/** Runs the seeded scenario against `relay`; returns the counts, after checking every device against the truth. */
export async function outageScenario(
  { devnet, standIn, proxy }: OutageWorld,
  seed: number,
  relay: () => RelayUnderTest,
): Promise<Counts> {
  /** The relay gave up waiting for the answer to one of this alert's pushes (its Topic, as docs/relay.md gives it). */
  const abandoned = (deviceId: string, alertId: string): boolean =>
    proxy.abandoned.has(createHash('sha256').update(`${deviceId}|${alertId}`).digest('base64url').slice(0, 32));
  const chain = devnet.node.chain;
  const rng = new SeededRandom(`relay-storage-outage/${seed}`);
  const people = chain.accounts.people.map((person) => person.address);
  const observed = new Observed(chain);
  for (const principal of people) observed.watch(principal);
  const devices: { id: string; secret: string; clientHash: string; principals: string[] }[] = [];
  for (let index = 0; index < DEVICES; index++) {
    const principals = people.filter((_, at) => at === index || rng.chance(0.5));
    const subscribed = await standIn.subscribe(relay().vapidPublicKey);
    const subscription = { endpoint: proxy.endpointFor(subscribed.endpoint), keys: subscribed.keys };
    const id = random(24);
    const secret = random(43);
    const answer = await call(`${relay().url}/v1/devices/${id}`, {
      method: 'PUT',
      secret,
      body: { subscription, watches: principals.map((principal) => ({ network: 'testnet', principal })) },
    });
    expect(answer.status, `seed ${seed}`).toBe(201);
    devices.push({ id, secret, clientHash: subscribed.clientHash, principals });
  }
  // What the chain holds when each principal's first sync is done is history; the traffic starts after.
  await eventually('the relay to follow the devnet and sync every principal', async () => {
    const health = (await call(`${relay().url}/health`)).body as {
      networks?: { testnet?: { connected: boolean; principals: number; unsynced: number } };
    };
    const testnet = health.networks?.testnet;
    return testnet?.connected && testnet.principals === people.length && testnet.unsynced === 0 ? true : undefined;
  });

  const counts: Counts = {
    seed,
    alerts: 0,
    pushes: 0,
    repeats: 0,
    afterNoAnswer: 0,
    refusals: 0,
    refusedAlerts: 0,
    reorgs: 0,
    transfers: 0,
  };
  // What happened when, for a failure's message: the chain's steps and the faults, beside the relay's own lines.
  const timeline: string[] = [];
  const note = (what: string) => timeline.push(`${timeline.length}: tip ${chain.tip.height} ${what}`);
  const mineBlock = () =>
    note(
      `mined ${chain
        .mine()
        .txIds.map((txId) => txId.slice(0, 10))
        .join(' ')}`,
    );
  const failing = (error: unknown): never => {
    const lines = relay().reported().trim().split('\n').slice(-80);
    throw new Error(
      `seed ${seed}: ${String(error)}\nwhat happened:\n${timeline.join('\n')}\nthe relay said:\n${lines.join('\n')}`,
    );
  };
  let refusedFrom = 0;
  let queuedAtKill: ReadonlySet<string> = new Set();
  const pushedBeforeRestart = new Map<string, number>();
  for (let step = 0; step < STEPS; step++) {
    if (step === PUSH_OUTAGE.from) {
      refusedFrom = proxy.seen.length;
      proxy.down = { status: 503 };
      note('push service down (503)');
      await observed.transfer(people[2]!, people[3]!, 2_000n + BigInt(step));
      counts.transfers += 1;
      mineBlock();
    }
    if (step === PUSH_OUTAGE.to) {
      // Back only once every alert it refused was refused more often than the old budget tried: each would have
      // been given up for good before.
      let short: number[] = [];
      const refused = await eventually(
        `every alert refused to be refused more than ${OLD_BUDGET_TRIES} times`,
        async () => {
          const byTopic = refusedSince(proxy, refusedFrom);
          short = [...byTopic.values()].filter((times) => times <= OLD_BUDGET_TRIES);
          return byTopic.size > 0 && short.length === 0 ? byTopic : undefined;
        },
      ).catch((error: unknown) =>
        failing(`${String(error)} (the relay stopped trying alerts refused ${short.join(', ')} times)`),
      );
      proxy.down = null;
      counts.refusals = [...refused.values()].reduce((sum, times) => sum + times, 0);
      counts.refusedAlerts = refused.size;
      note(`push service back, after ${counts.refusals} refusals of ${refused.size} alerts`);
    }
    if (step === DATABASE_OUTAGE.from) {
      await relay().databaseDown();
      note('database down');
      await observed.transfer(people[0]!, people[1]!, 1_000n + BigInt(step));
      counts.transfers += 1;
      mineBlock();
      // Down for as long as the relay takes to find out (its first failed write), then the traffic goes on.
      await eventually('the relay to meet the database down', async () =>
        /trying again until it works/.test(relay().reported()) ? true : undefined,
      ).catch(failing);
    }
    if (step === DATABASE_OUTAGE.to) {
      await relay().databaseUp();
      note('database up');
    }
    const { kill, restart } = relay();
    if (kill && step === KILLED.from) {
      // Killed once it has stored what waited for the database (a kill meanwhile is the restart's catch-up).
      await eventually('the relay to store what waited for the database', async () =>
        /done after \d+ tries/.test(relay().reported()) ? true : undefined,
      ).catch(failing);
      queuedAtKill = await kill();
      note(`relay killed, ${queuedAtKill.size} states queued`);
    }
    if (restart && step === KILLED.to) {
      // Counted at the restart, not at the kill: the push service may record a push the killed relay had sent (and
      // never heard accepted) a little after the kill.
      for (const device of devices)
        pushedBeforeRestart.set(
          device.id,
          (await standIn.notifications(device.clientHash)).flatMap(pushedSides).length,
        );
      await restart();
      note('relay restarted');
    }
    const roll = rng.next();
    if (roll < 0.55) {
      for (let count = rng.int(1, 3); count > 0; count--) {
        const [from, to] = [rng.pick(people), rng.pick(people)];
        if (from === to) continue;
        const entry = await observed.transfer(from, to, BigInt(rng.int(1, 50_000)));
        note(`sent ${entry.signed.txId.slice(0, 10)}`);
        counts.transfers += 1;
      }
    } else if (roll < 0.9) mineBlock();
    else if (chain.tip.height > 4) {
      const depth = rng.int(1, 2);
      observed.reorg(depth);
      note(`re-org of ${depth}`);
      counts.reorgs += 1;
    }
    // While the database is down the relay keeps trying: the outage spans a few of its retries.
    const down = step >= DATABASE_OUTAGE.from && step < DATABASE_OUTAGE.to;
    if (down || rng.chance(0.5)) await new Promise((resolve) => setTimeout(resolve, rng.int(0, down ? 250 : 40)));
  }
  // Whatever is still pending (sent during the run, or back in the mempool after a re-org) is mined.
  mineBlock();
  mineBlock();

  const expected = observed.expected();
  const optional = observed.optional();
  for (const device of devices) {
    // Alert ids are `network:principal:txId`.
    const mine = new Map([...expected].filter(([id]) => device.principals.includes(id.split(':')[1]!)));
    let differ: string[] = [];
    const pushes = await eventually(`device ${device.id} to receive every alert in its final state`, async () => {
      const list = (await standIn.notifications(device.clientHash)).flatMap((text) =>
        pushedSides<Pushed['alert']>(text),
      );
      const last = new Map<string, string>();
      for (const push of list) last.set(push.alert.id, push.alert.phase);
      differ = [...mine].flatMap(([id, phase]) => {
        if (last.get(id) === phase || (abandoned(device.id, id) && newestPushed(list, id) === phase)) return [];
        const txId = id.split(':')[2]!;
        const state = chain.tx(txId)?.state;
        const where = state?.kind === 'confirmed' ? `mined at ${state.block.height}` : state?.kind;
        const orphaned = observed.orphaned.has(txId) ? ', orphaned by a re-org before' : '';
        const told = list
          .filter((push) => push.alert.id === id)
          .map((push) => `${push.alert.phase} #${push.alert.cursor}`);
        return [`${id} ${last.get(id)}, not ${phase} (${where}${orphaned}; pushed: ${told.join(', ') || 'nothing'})`];
      });
      return differ.length === 0 ? list : undefined;
    }).catch((error: unknown) => failing(`${String(error)}:\n${differ.join('\n')}`));
    // Stacking locks and unlocks are not transactions: the oracle does not say them.
    const pushedIds = new Set(pushes.map((push) => push.alert.id).filter((id) => !/:(un)?lock:/.test(id)));
    const last = new Map(pushes.map((push) => [push.alert.id, push.alert.phase]));
    expect(
      [...pushedIds].filter((id) => !mine.has(id) && optional.get(id) !== last.get(id)),
      `seed ${seed}: pushes for alerts not in the truth`,
    ).toEqual([]);
    // A repeat: one stored state (its cursor in the device's log) pushed again. Only in the window docs/relay.md
    // gives: sent by the killed relay, still queued in its database (accepted, the told mark not written), and sent
    // once more by the restarted one. (A state may follow the same phase with a new cursor: mined again after a
    // re-org, the states between replaced in the queue.)
    const before = pushedBeforeRestart.get(device.id) ?? Infinity;
    const firstAt = new Map<string, number>();
    const repeated = new Set<string>();
    pushes.forEach((push, index) => {
      const state = `${push.alert.id} ${push.alert.cursor}`;
      const previous = firstAt.get(state);
      if (previous !== undefined) {
        counts.repeats += 1;
        // The other window: a push whose answer the relay gave up waiting for is sent again.
        if (abandoned(device.id, push.alert.id)) return void (counts.afterNoAnswer += 1);
        const inWindow = previous < before && index >= before && queuedAtKill.has(`${device.id} ${push.alert.cursor}`);
        expect(
          inWindow && !repeated.has(state),
          `seed ${seed}: ${push.alert.id} "${push.alert.phase}" #${push.alert.cursor} pushed again (pushes ${previous} and ${index}; ${before} before the restart; ${queuedAtKill.has(`${device.id} ${push.alert.cursor}`) ? '' : 'not '}queued at the kill)`,
        ).toBe(true);
        repeated.add(state);
      } else firstAt.set(state, index);
    });
    // The catch-up log holds every final state too.
    const listed = await call(`${relay().url}/v1/devices/${device.id}/alerts`, { secret: device.secret });
    const logged = new Map<string, string>();
    for (const alert of listed.body?.['alerts'] as Pushed['alert'][]) logged.set(alert.id, alert.phase);
    expect(
      [...mine].filter(([id, phase]) => logged.get(id) !== phase),
      `seed ${seed}: missing from the log`,
    ).toEqual([]);
    counts.alerts += mine.size;
    counts.pushes += pushes.length;
  }
  return counts;
}
