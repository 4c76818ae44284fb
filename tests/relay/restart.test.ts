import { relayDataDir } from './pglite-template.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import type { tempDir } from './harness.ts';
import {
  call,
  eventually,
  pushedSides,
  freePort,
  random,
  startPushStandIn,
  waitForLine,
  type PushStandIn,
} from './harness.ts';
import { Observed } from './scenario.ts';

let devnet: RunningDevnet;
let standIn: PushStandIn;
let dir: Awaited<ReturnType<typeof tempDir>>;
let port: number;
let child: ChildProcess | null = null;

/** `npm run relay` as its own process, so that it can be killed without warning. */
async function startRelayProcess(): Promise<string> {
  child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/relay/main.ts',
      '--testnet-node',
      devnet.url,
      '--data-dir',
      dir.path,
      '--port',
      String(port),
      // Pushes encrypted and posted on worker threads, whatever the machine's cores.
      '--push-threads',
      '2',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, RELAY_PUSH_ALLOW: standIn.origin } },
  );
  await waitForLine(child, 'stderr', /relay listening/);
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  dir = await relayDataDir('relay-restart-');
  port = await freePort();
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  standIn = await startPushStandIn();
});

afterAll(async () => {
  child?.kill('SIGKILL');
  standIn?.close();
  await devnet?.close();
  await dir?.remove();
});

describe('a relay killed with SIGKILL and started again', () => {
  it('loses nothing and repeats nothing it told since: it catches up from where each address was', async () => {
    const [a, b] = devnet.node.chain.accounts.all.map((account) => account.address);
    const url = await startRelayProcess();
    const key = (await call(`${url}/v1/vapid-public-key`)).body?.['publicKey'] as string;
    const subscription = await standIn.subscribe(key);
    const observed = new Observed(devnet.node.chain);
    observed.watch(b!);
    const id = random(24);
    const secret = random(43);
    const put = await call(`${url}/v1/devices/${id}`, {
      method: 'PUT',
      secret,
      body: { subscription, watches: [{ network: 'testnet', principal: b }] },
    });
    expect(put.status).toBe(201);
    const messages = async () =>
      (await standIn.notifications(subscription.clientHash)).flatMap((text) =>
        pushedSides<{ id: string; phase: string }>(text),
      );
    const finalStates = async () => {
      const last = new Map<string, string>();
      for (const push of await messages()) last.set(push.alert.id, push.alert.phase);
      const expected = observed.expected();
      return [...expected].every(([alertId, phase]) => last.get(alertId) === phase) ? true : undefined;
    };
    await eventually('the relay to follow b', async () => {
      const health = (await call(`${url}/health`)).body as { networks: { testnet: { connected: boolean } } };
      return health.networks.testnet.connected ? true : undefined;
    });

    await observed.transfer(a!, b!, 1_000n);
    devnet.node.chain.mine();
    await eventually('the first transfer', finalStates);
    const stateOf = (push: { alert: { id: string; phase: string } }) => `${push.alert.id} ${push.alert.phase}`;
    const pushedBeforeKill = new Set((await messages()).map(stateOf));

    // Killed without warning; meanwhile the chain goes on.
    child?.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    await observed.transfer(a!, b!, 2_000n);
    devnet.node.chain.mine();
    await observed.transfer(b!, a!, 3_000n);
    devnet.node.chain.mine();
    await observed.transfer(a!, b!, 4_000n);

    await startRelayProcess();
    devnet.node.chain.mine();
    await eventually('every transfer after the restart', finalStates);
    const states = (await messages()).map(stateOf);
    expect(states.length).toBeGreaterThanOrEqual(4);
    // Repeated: only a state the push service took before the kill whose told mark the kill beat (docs/relay.md, "at
    // least once, in one window"), and only once; the service worker shows an alert id and phase once all the same.
    const repeats = [...new Set(states)]
      .map((state) => ({ state, times: states.filter((other) => other === state).length }))
      .filter(({ state, times }) => times > (pushedBeforeKill.has(state) ? 2 : 1));
    expect(repeats, states.join('\n')).toEqual([]);
    expect(observed.expected().size).toBe(4);
  });
});

describe('a relay stopped with SIGTERM or SIGINT', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`on ${signal}: stops its push threads, closes its database, exits 0; its data is its owner's only`, async () => {
      const before = child;
      if (before && before.exitCode === null) {
        before.kill('SIGKILL');
        await new Promise((resolve) => before.once('exit', resolve));
      }
      // Left by an older relay: readable by every local user.
      await chmod(dir.path, 0o755);
      await chmod(join(dir.path, 'pgdata', 'PG_VERSION'), 0o644);
      await startRelayProcess();
      let stderr = '';
      child?.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
      child?.kill(signal);
      expect(await exited).toBe(0);
      const events = stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: string; event: string; signal?: string });
      expect(events.map((line) => [line.level, line.event])).toEqual([
        ['info', 'stopping'],
        ['info', 'stopped'],
      ]);
      expect(events[0]?.signal).toBe(signal);
      const loose = (await modes(dir.path)).filter(([, mode, isDir]) => mode !== (isDir ? 0o700 : 0o600));
      expect(loose.map(([path, mode]) => `${path} ${mode.toString(8)}`)).toEqual([]);
    });
});

/** Every file and directory under `root` with its permission bits. */
async function modes(root: string): Promise<[string, number, boolean][]> {
  const found: [string, number, boolean][] = [[root, (await stat(root)).mode & 0o777, true]];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    found.push([path, (await stat(path)).mode & 0o777, entry.isDirectory()]);
  }
  return found;
}
