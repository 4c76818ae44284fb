/**
 * Three relay instances on one PostgreSQL server, each its own process (tests/relay/scaled-relay.ts), devices
 * registered through all three, seeded devnet traffic with re-orgs; one instance SIGKILLed mid-stream, then another,
 * then the first brought back. Every device gets every expected alert in its final state (the truth: the devnet's
 * ledger, tests/monitor/truth/oracle.ts), none lost; a state pushed twice only if the killed instance still held it
 * queued, or after a push whose answer an instance gave up waiting for (the at-least-once windows, docs/relay.md),
 * counted; the time from each kill to the first push of the dead instance's work (a transfer made after the kill, to
 * a device it judged for) measured and printed.
 * `RELAY_INSTANCES_SEED=7` repeats a run with another seed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeededRandom } from '../../mocks/devnet/random.ts';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { partOf, PARTITIONS } from '../../src/relay/cluster/partitions.ts';
import {
  call,
  eventually,
  pushedSides,
  freePort,
  random,
  startPushStandIn,
  tempDir,
  waitForLine,
  type PushStandIn,
} from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';
import { Observed } from './scenario.ts';

const INSTANCES = 3;
const DEVICES = 9;
const STEPS = 60;
/**
 * Steps at which an instance is killed (which one, if it judges one of the devices: their ids are random, and so is
 * where their partitions land; else the live instance judging most of them) and the first one killed is started again.
 */
const KILLS = new Map([
  [8, 0],
  [24, 1],
]);
const BACK = { step: 38 };
/**
 * Measured and printed, not asserted: the time from each kill to the dead instance's work pushed (issue 37 asks for
 * at most 15 s), and the repeats (it asks for at most 10 a run). How many pushes a kill catches between the push
 * service's 201 and their told mark depends on where it falls in a burst and on the machine's load (seed 3: 15 at a
 * load average of 11); each repeat must be one of the states the killed instance held queued, which is asserted.
 */

interface Pushed {
  readonly alert: { id: string; phase: string; cursor: string; txId?: string };
}

/**
 * What a device shows of each alert after the pushes it received, in their order: a pending after the alert was
 * shown confirmed or failed is not shown (the service worker's rule, sw/push.ts). `late` lists such pendings that are
 * older than the settled state shown (a lower cursor): a push the relay gave up waiting for that the service took
 * after a later state, each to be explained by one. (A newer pending, after a re-org whose "reverted" was replaced in
 * the queue, is not late: the device does not show it either, and the final state is judged against the ledger.)
 */
function shownBy(received: readonly Pushed[]): { shown: Map<string, string>; late: Pushed[] } {
  const shown = new Map<string, Pushed['alert']>();
  const late: Pushed[] = [];
  for (const push of received) {
    const before = shown.get(push.alert.id);
    if (push.alert.phase === 'pending' && (before?.phase === 'confirmed' || before?.phase === 'failed')) {
      if (BigInt(push.alert.cursor) < BigInt(before.cursor)) late.push(push);
    } else shown.set(push.alert.id, push.alert);
  }
  return { shown: new Map([...shown].map(([id, alert]) => [id, alert.phase])), late };
}

interface Instance {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  readonly dir: Awaited<ReturnType<typeof tempDir>>;
  child: ChildProcess | null;
  log: string;
}

let devnet: RunningDevnet;
let standIn: PushStandIn;
let postgres: RunningPostgres;
let db: pg.Client;
const instances: Instance[] = [];

beforeAll(async () => {
  [devnet, standIn, postgres] = await Promise.all([
    startDevnet({ port: 0, blockMs: null, activity: false }),
    startPushStandIn(),
    startPostgres(),
  ]);
  db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
});

afterAll(async () => {
  for (const instance of instances) {
    const child = instance.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await instance.dir.remove();
  }
  await db?.end();
  await postgres?.stop();
  standIn?.close();
  await devnet?.close();
});

async function start(instance: Instance): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', 'tests/relay/scaled-relay.ts', '--testnet-node', devnet.url],
      ...['--database-url', postgres.url, '--instance', instance.name, '--data-dir', instance.dir.path],
      ...['--port', String(instance.port), '--push-threads', '1', '--push-allow', standIn.origin, '--metrics'],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  instance.child = child;
  child.stderr!.on('data', (chunk: Buffer) => (instance.log += chunk.toString()));
  await waitForLine(child, 'stderr', /relay listening/);
}

async function kill(instance: Instance): Promise<void> {
  const child = instance.child!;
  child.kill('SIGKILL');
  await new Promise((resolve) => (child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
}

interface Health {
  networks?: { testnet?: { connected: boolean; principals: number; unsynced: number } };
  instance?: { partitions: number; devices: number; instances: number };
}
const health = async (instance: Instance) => (await call(`${instance.url}/health`)).body as Health;

/**
 * States whose push the instance gave up waiting for an answer to since it started (docs/relay.md): each may reach
 * its device once more. Counted by state, not by push: a push of a transfer's two sides left unanswered repeats both.
 */
async function unansweredBy(instance: Instance): Promise<number> {
  const metrics = await (await fetch(`${instance.url}/metrics`)).text();
  return Number(/^relay_push_states_unanswered_total (\d+)$/m.exec(metrics)?.[1] ?? 0);
}

/** Every live instance follows every principal, the partitions are all leased, and `devices` are judged once. */
async function settled(live: readonly Instance[], principals: number, devices: number): Promise<void> {
  await eventually('the instances to share the partitions and judge every device once', async () => {
    const seen = await Promise.all(live.map(health));
    const parts = seen.reduce((sum, one) => sum + (one.instance?.partitions ?? 0), 0);
    const judged = seen.reduce((sum, one) => sum + (one.instance?.devices ?? 0), 0);
    const following = seen.every(
      (one) => one.networks?.testnet?.connected && one.networks.testnet.principals === principals,
    );
    // Each has its share (the partitions divided among them, rounded down at least).
    const shared = seen.every((one) => (one.instance?.partitions ?? 0) >= Math.floor(PARTITIONS / live.length));
    return parts === PARTITIONS && shared && judged === devices && following ? true : undefined;
  });
}

describe('several instances on one PostgreSQL', () => {
  it('shares the devices, survives two SIGKILLs and a return: every alert in its final state, none lost', async () => {
    const seed = Number(process.env['RELAY_INSTANCES_SEED'] ?? 1);
    const rng = new SeededRandom(`relay-instances/${seed}`);
    const chain = devnet.node.chain;
    const people = chain.accounts.people.map((person) => person.address);
    const observed = new Observed(chain);
    for (const principal of people) observed.watch(principal);
    for (let index = 0; index < INSTANCES; index++) {
      const port = await freePort();
      instances.push({
        name: `relay-${index}`,
        port,
        url: `http://127.0.0.1:${port}`,
        dir: await tempDir(`relay-instance-${index}-`),
        child: null,
        log: '',
      });
    }
    // The first makes the VAPID key and stores it; the others start together and use it.
    await start(instances[0]!);
    await Promise.all(instances.slice(1).map(start));
    const keys = await Promise.all(
      instances.map(async (instance) => (await call(`${instance.url}/v1/vapid-public-key`)).body?.['publicKey']),
    );
    expect(new Set(keys).size, 'one VAPID key for all').toBe(1);
    const vapidKey = keys[0] as string;

    const devices: { id: string; secret: string; clientHash: string; principals: string[] }[] = [];
    for (let index = 0; index < DEVICES; index++) {
      const principals = people.filter((_, at) => at === index % people.length || rng.chance(0.4));
      const subscribed = await standIn.subscribe(vapidKey);
      const [id, secret] = [random(24), random(43)];
      const through = instances[index % INSTANCES]!;
      const answer = await call(`${through.url}/v1/devices/${id}`, {
        method: 'PUT',
        secret,
        body: {
          subscription: { endpoint: subscribed.endpoint, keys: subscribed.keys },
          watches: principals.map((principal) => ({ network: 'testnet', principal })),
        },
      });
      expect(answer.status, `seed ${seed}`).toBe(201);
      devices.push({ id, secret, clientHash: subscribed.clientHash, principals });
    }
    const watched = new Set(devices.flatMap((device) => device.principals)).size;
    await settled(instances, watched, DEVICES);

    const timeline: string[] = [];
    const note = (what: string) =>
      timeline.push(`${timeline.length} ${new Date().toISOString().slice(11, 23)}: tip ${chain.tip.height} ${what}`);
    const live = new Set(instances);
    /** Each instance's /health, or that it did not answer: tells a stalled or hung instance from a busy one. */
    const healthOfEach = () =>
      Promise.all(
        instances.map(async (instance) => {
          if (!live.has(instance)) return `${instance.name}: killed`;
          try {
            const answer = await fetch(`${instance.url}/health`, { signal: AbortSignal.timeout(5_000) });
            return `${instance.name}: ${await answer.text()}`;
          } catch (error) {
            return `${instance.name}: no answer to /health within 5 s (${String(error)})`;
          }
        }),
      );
    const failing = async (error: unknown): Promise<never> => {
      const healths = await healthOfEach();
      // Each instance's warnings and hand-overs (lapses, takeovers, failed pushes), then its last lines.
      const logs = instances.map((instance) => {
        const lines = instance.log.trim().split('\n');
        const notable = lines.filter((line) => /"warn"|taken over|let go|partitions taken/.test(line));
        return `--- ${instance.name}:\n${[...notable.slice(-40), '…', ...lines.slice(-20)].join('\n')}`;
      });
      throw new Error(
        `seed ${seed}: ${String(error)}\nwhat happened:\n${timeline.join('\n')}\n${logs.join('\n')}\nhealth:\n${healths.join('\n')}`,
      );
    };
    const mine = () => note(`mined ${chain.mine().txIds.length} txs`);
    const failovers: number[] = [];
    /** States (`device cursor`) a killed instance held queued: the window in which one may be pushed twice. */
    const window = new Set<string>();
    let transfers = 0;
    let reorgs = 0;
    /** States whose push the killed instances gave up waiting for (their counters go with them). */
    let unansweredBeforeKills = 0;

    /** The ids of the devices whose partitions the instance holds. */
    const judgedBy = async (instance: (typeof instances)[number]): Promise<string[]> =>
      (
        await db.query<{ id: string }>(
          `SELECT id FROM devices WHERE ${partOf('id')} IN (SELECT part FROM partition_leases WHERE owner = $1)`,
          [instance.name],
        )
      ).rows.map((row) => row.id);
    const killedFirst: (typeof instances)[number][] = [];
    for (let step = 0; step < STEPS; step++) {
      const killed = KILLS.get(step);
      if (killed !== undefined) {
        const ours = (ids: readonly string[]) => devices.filter((device) => ids.includes(device.id)).length;
        let victim = instances[killed]!;
        let owned = await judgedBy(victim);
        if (ours(owned) === 0) {
          // Killing an instance that judges none of the devices would measure no failover: the busiest one instead.
          for (const other of live) {
            const theirs = await judgedBy(other);
            if (ours(theirs) > ours(owned)) [victim, owned] = [other, theirs];
          }
        }
        killedFirst.push(victim);
        const device = devices.find((candidate) => owned.includes(candidate.id));
        unansweredBeforeKills += await unansweredBy(victim);
        await kill(victim);
        const killedAt = Date.now();
        live.delete(victim);
        const queued = await db.query<{ device_id: string; cursor: string }>(
          `SELECT device_id, cursor FROM deliveries WHERE status = 'queued' AND claimed_by = $1`,
          [victim.name],
        );
        for (const row of queued.rows) window.add(`${row.device_id} ${row.cursor}`);
        note(`${victim.name} killed (${owned.length} devices, ${queued.rows.length} states queued)`);
        if (device) {
          // Work that only the dead instance would have done: a transfer to a device it judged for.
          const to = device.principals[0]!;
          const from = people.find((person) => person !== to)!;
          const entry = await observed.transfer(from, to, 777n + BigInt(step));
          transfers += 1;
          mine();
          const txId = entry.signed.txId;
          await eventually(
            `${victim.name}'s device ${device.id} to be told of ${txId} by another instance`,
            async () => {
              const list = (await standIn.notifications(device.clientHash)).flatMap((text) =>
                pushedSides<Pushed['alert']>(text),
              );
              return list.some((push) => push.alert.id.endsWith(txId) && push.alert.phase === 'confirmed')
                ? true
                : undefined;
            },
          ).catch(failing);
          failovers.push(Date.now() - killedAt);
          note(`${victim.name}'s work pushed again after ${failovers.at(-1)} ms`);
        }
      }
      if (step === BACK.step) {
        const back = killedFirst[0]!;
        await start(back);
        live.add(back);
        await settled([...live], watched, DEVICES).catch(failing);
        note(`${back.name} back with a share`);
      }
      const roll = rng.next();
      if (roll < 0.55) {
        for (let count = rng.int(1, 3); count > 0; count--) {
          const [from, to] = [rng.pick(people), rng.pick(people)];
          if (from === to) continue;
          await observed.transfer(from, to, BigInt(rng.int(1, 50_000)));
          transfers += 1;
        }
        note('sent');
      } else if (roll < 0.9) mine();
      else if (chain.tip.height > 4) {
        const depth = rng.int(1, 2);
        observed.reorg(depth);
        note(`re-org of ${depth}`);
        reorgs += 1;
      }
    }
    mine();
    mine();

    const expected = observed.expected();
    const optional = observed.optional();
    let alerts = 0;
    let pushes = 0;
    let repeats = 0;
    let afterNoAnswer = 0;
    /** Read after the pushes it may explain: the counter moves before the push is sent again. */
    const unanswered = async () =>
      unansweredBeforeKills + (await Promise.all([...live].map(unansweredBy))).reduce((a, b) => a + b, 0);
    let samePhaseAgain = 0;
    const lateStates: string[] = [];
    for (const device of devices) {
      const own = new Map([...expected].filter(([id]) => device.principals.includes(id.split(':')[1]!)));
      let differ: string[] = [];
      /** For each alert not in its final state: the states received (phase#cursor, in order) and those stored. */
      const traced = async () => {
        const received = (await standIn.notifications(device.clientHash)).flatMap((text) =>
          pushedSides<Pushed['alert']>(text),
        );
        const stored = await db.query<{ alert_id: string; cursor: string; phase: string; status: string; by: string }>(
          `SELECT alert_id, cursor, phase, status, claimed_by AS by FROM deliveries WHERE device_id = $1 ORDER BY cursor`,
          [device.id],
        );
        return differ.map((line) => {
          const id = line.split(' ')[0]!;
          const got = received
            .filter((push) => push.alert.id === id)
            .map((push) => `${push.alert.phase}#${push.alert.cursor}`);
          const rows = stored.rows
            .filter((row) => row.alert_id === id)
            .map((row) => `${row.phase}#${row.cursor} ${row.status} by ${row.by}`);
          return `${line}\n  received ${got.join(', ')}\n  stored ${rows.join(', ')}`;
        });
      };
      const list = await eventually(
        `device ${device.id} to receive every alert in its final state`,
        async () => {
          const received = (await standIn.notifications(device.clientHash)).flatMap((text) =>
            pushedSides<Pushed['alert']>(text),
          );
          const last = shownBy(received).shown;
          differ = [...own].flatMap(([id, phase]) =>
            last.get(id) === phase ? [] : [`${id} ${last.get(id)}, not ${phase}`],
          );
          return differ.length === 0 ? received : undefined;
        },
        60_000,
      ).catch(async (error: unknown) => failing(`${String(error)}:\n${(await traced()).join('\n')}`));
      const { shown: last, late } = shownBy(list);
      lateStates.push(...late.map((push) => `${push.alert.id} "pending" #${push.alert.cursor} (device ${device.id})`));
      expect(
        [...last.keys()].filter((id) => !/:(un)?lock:/.test(id) && !own.has(id) && optional.get(id) !== last.get(id)),
        `seed ${seed}: pushes for alerts not in the truth`,
      ).toEqual([]);
      // One alert told the same phase again under a new cursor: judged twice (or a re-org's state between them
      // replaced in the queue, which is legitimate): counted and printed, not a repeat of a stored state.
      const phases = new Map<string, string>();
      const cursors = new Set<string>();
      for (const push of list) {
        if (cursors.has(push.alert.cursor)) continue;
        cursors.add(push.alert.cursor);
        if (phases.get(push.alert.id) === push.alert.phase) samePhaseAgain += 1;
        phases.set(push.alert.id, push.alert.phase);
      }
      const seen = new Set<string>();
      for (const push of list) {
        const state = `${device.id} ${push.alert.cursor}`;
        if (!seen.has(state)) {
          seen.add(state);
          continue;
        }
        repeats += 1;
        if (window.has(state)) continue;
        // The other window (docs/relay.md): a push whose answer an instance gave up waiting for is sent again. Its
        // metrics count the states of those pushes (each side of one) without naming them, so each may explain one
        // repeat.
        afterNoAnswer += 1;
        const gaveUp = await unanswered();
        if (afterNoAnswer > gaveUp) {
          const order = list.flatMap((other, at) => (other.alert.cursor === push.alert.cursor ? [at] : []));
          await failing(
            `${push.alert.id} "${push.alert.phase}" #${push.alert.cursor} pushed twice outside the window (device ${device.id}, pushes ${order.join(' and ')} of ${list.length}; ${gaveUp} states unanswered)`,
          );
        }
      }
      alerts += own.size;
      pushes += list.length;
    }
    // Each late pending is one push left unanswered that the service took after all (a loaded stand-in answering
    // after the 15 s): the device does not show it, and nothing else may bring an older state after a newer one.
    const gaveUp = await unanswered();
    if (lateStates.length > gaveUp) {
      await failing(
        `pendings received after their alert's settled state: ${lateStates.join(', ')}; ${gaveUp} unanswered`,
      );
    }
    const figures = {
      seed,
      instances: INSTANCES,
      devices: DEVICES,
      transfers,
      reorgs,
      alerts,
      pushes,
      repeats,
      afterNoAnswer,
      latePending: lateStates.length,
      samePhaseAgain,
      windowStates: window.size,
      failoverMs: failovers,
    };
    console.log(`[relay instances] ${JSON.stringify(figures)}`);
    expect(failovers.length, `seed ${seed}: both kills measured`).toBe(KILLS.size);
  });
});
