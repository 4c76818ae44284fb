import { randomBytes } from 'node:crypto';
import { c32address } from 'c32check';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { BlockFollower, type FollowerSink } from '../../src/chain/block-follower.ts';
import type { NodeGet } from '../../src/chain/chain-reads.ts';
import { SocketIoFeed, type FeedHandlers } from '../../src/chain/feed.ts';
import { principalsOf, type DevnetChain } from '../../mocks/devnet/chain.ts';
import { derivedHex, SeededRandom } from '../../mocks/devnet/random.ts';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { traffic } from './support/traffic.ts';

const ROUNDS = 24;
const WATCHED = 5_000;

/** Every request the follower sends the node, counted where it leaves (failed ones during the outage included). */
function countingGet(url: string) {
  const sent: string[] = [];
  const get: NodeGet = async (path) => {
    sent.push(path);
    const response = await fetch(`${url}${path}`);
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`${response.status} for ${path}`);
    return response.json();
  };
  return { get, sent };
}

/** What the sink heard: per height, the block's hash and tx ids per principal; orphaned heights taken back. */
function recordingSink(watched: Set<string>) {
  const blocks = new Map<number, { hash: string; touched: Map<string, string[]> }>();
  const reorgs: number[][] = [];
  const pending = new Map<string, number>();
  const sink: FollowerSink = {
    block(block, touched) {
      // One indexed lookup against the watched set per principal the block touched, never per watched principal.
      const mine = new Map<string, string[]>();
      for (const [principal, txs] of touched)
        if (watched.has(principal))
          mine.set(
            principal,
            txs.map((tx) => tx.txId),
          );
      blocks.set(block.height, { hash: block.hash, touched: mine });
    },
    reorg(heights) {
      reorgs.push([...heights]);
      for (const height of heights) blocks.delete(height);
    },
    pending(tx) {
      pending.set(tx.txId, (pending.get(tx.txId) ?? 0) + 1);
    },
  };
  return { sink, blocks, reorgs, pending };
}

/** The devnet's own truth: per canonical height, the watched principals each transaction touched (its ledger). */
function expectedFrom(chain: DevnetChain, from: number, watched: Set<string>) {
  const expected = new Map<number, { hash: string; touched: Map<string, string[]> }>();
  for (let height = from; height <= chain.tip.height; height++) {
    const block = chain.block(height)!;
    const touched = new Map<string, string[]>();
    for (const txId of block.txIds) {
      for (const principal of principalsOf(chain.tx(txId)!)) {
        if (!watched.has(principal)) continue;
        touched.set(principal, [...(touched.get(principal) ?? []), txId]);
      }
    }
    expected.set(height, { hash: block.hash, touched });
  }
  return expected;
}

let devnet: RunningDevnet | undefined;
let feed: SocketIoFeed | undefined;
let follower: BlockFollower | undefined;

afterEach(async () => {
  follower?.stop();
  feed?.close();
  await devnet?.close();
});

describe('the block follower, with the devnet as oracle', () => {
  it('reports every watched principal a block touched once per block, re-orgs and an outage included, within 3 requests a block', async () => {
    const seed = process.env['FOLLOWER_SEED'] ?? randomBytes(4).toString('hex');
    onTestFailed(() => console.error(`block follower: seed ${seed} (FOLLOWER_SEED=${seed} repeats it)`));
    const random = new SeededRandom(seed);
    devnet = await startDevnet({ port: 0, blockMs: null, seed: `follower-${seed}` });
    const { chain } = devnet.node;
    const strangers = Array.from({ length: WATCHED }, (_, i) =>
      c32address(26, derivedHex(seed, `stranger/${i}`).slice(0, 40)),
    );
    const watched = new Set<string>();
    const { get, sent } = countingGet(devnet.url);
    const heard = recordingSink(watched);
    const errors: unknown[] = [];
    follower = new BlockFollower(get, heard.sink, { pollMs: 100, onError: (error) => errors.push(error) });
    const live = follower;
    let connected = false;
    const handlers: FeedHandlers = {
      onState: (state) => {
        if (state === 'live') return;
        connected = false;
        live.feedDown();
      },
      onConnected: () => {
        connected = true;
        live.feedUp();
      },
      onBlock: (block) => live.heardBlock(block),
      onMempool: (tx) => live.heardMempool(tx),
      onAddressTransaction: () => {},
      onAddressBalance: () => {},
      onTransaction: () => {},
      onRefused: () => {},
    };
    feed = new SocketIoFeed(devnet.url, handlers, {
      transports: ['websocket'],
      reconnectionDelay: 100,
      reconnectionDelayMax: 300,
    });
    chain.mine();
    const caughtUp = async () => {
      await expect.poll(() => live.tip?.hash).toBe(chain.tip.hash);
      await live.settled();
    };
    await caughtUp();
    const start = live.tip!.height;

    // Starting to follow 5,000 principals (the demo accounts among made-up ones) costs the node nothing.
    const before = sent.length;
    for (const account of chain.accounts.all) watched.add(account.address);
    for (const token of chain.assets.tokens) watched.add(token.contractId);
    watched.add(chain.assets.nft.contractId);
    for (const stranger of strangers) {
      if (watched.size >= WATCHED) break;
      watched.add(stranger);
    }
    expect(watched.size).toBe(WATCHED);
    expect(sent.length - before).toBe(0);

    const liveTxs: string[] = [];
    const orphanedByDevnet: number[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round === 8 || round === 17) {
        const { orphaned } = chain.reorg(random.int(1, 3));
        orphanedByDevnet.push(orphaned.map((block) => block.height));
        await caughtUp();
      }
      if (round === 12) {
        // The node away (sockets dropped, connections refused) while the chain goes on: blocks are missed, and a
        // re-org deeper than what was missed replaces blocks the follower had taken without it hearing of it.
        const seenTip = live.tip!.height;
        const errorsBefore = errors.length;
        devnet.node.outage(60_000);
        // The socket's drop heard (else a late one could cost the next round's mempool events), and a poll refused.
        await expect
          .poll(() => [connected, devnet!.hub.clientCount], { message: 'the socket dropped by the outage' })
          .toEqual([false, 0]);
        await expect.poll(() => errors.length).toBeGreaterThan(errorsBefore);
        await traffic(chain, random, strangers);
        chain.mine();
        const { orphaned } = chain.reorg(random.int(2, 3));
        orphanedByDevnet.push(orphaned.map((block) => block.height).filter((height) => height <= seenTip));
        for (let missed = 0; missed < 4; missed++) {
          await traffic(chain, random, strangers);
          chain.mine();
        }
        devnet.node.outage(0);
        // Polls may catch up before the socket is back; the mempool is heard only through the socket. A connection
        // tried during the outage opens and is cut at once: only one the node subscribed is back for good.
        await expect
          .poll(() => [connected, devnet!.hub.clientCount], { message: 'the socket back after the outage' })
          .toEqual([true, 1]);
        await caughtUp();
        continue;
      }
      const submitted = await traffic(chain, random, strangers);
      if (round === 5 || round === 20) {
        // An airdrop: more events than the API sends in one page (100), read by event_offset.
        const recipients = Array.from({ length: random.int(101, 200) }, () => ({
          to: random.pick(strangers),
          amount: BigInt(random.int(1, 9)),
        }));
        const contract = `${chain.accounts.deployer.address}.send-many`;
        const airdrop = await chain.submit(chain.accounts.deployer.address, {
          kind: 'send-many',
          contract,
          recipients,
        });
        submitted.push(airdrop.signed.txId);
      }
      // What was not heard, with the follower's errors (empty once every pending transaction was heard).
      const unheard = () => submitted.filter((txId) => !heard.pending.has(txId));
      await expect.poll(() => (unheard().length === 0 ? [] : [unheard(), errors.map(String)])).toEqual([]);
      liveTxs.push(...submitted);
      chain.mine();
      await caughtUp();
    }

    const expected = expectedFrom(chain, start, watched);
    // The oracle is not empty: sponsors, made-up recipients and contracts were touched, and blocks were missed.
    const touchedAnywhere = new Set([...expected.values()].flatMap(({ touched }) => [...touched.keys()]));
    const sponsored = liveTxs.map((txId) => chain.tx(txId)!.signed.sponsor?.address).filter(Boolean);
    expect(sponsored.length).toBeGreaterThan(0);
    expect(
      sponsored.filter((sponsor) => !touchedAnywhere.has(sponsor!)),
      'sponsors touched',
    ).toEqual([]);
    expect(
      strangers.some((stranger) => touchedAnywhere.has(stranger)),
      'a stranger touched',
    ).toBe(true);
    expect(touchedAnywhere.has(chain.accounts.vault.address), 'the vault touched').toBe(true);
    expect(
      sent.some((path) => path.startsWith('/extended/v2/blocks?')),
      'blocks listed',
    ).toBe(true);
    expect(
      sent.some((path) => path.includes('event_offset=100')),
      'events paged',
    ).toBe(true);
    expect(new Map([...heard.blocks].filter(([height]) => height >= start))).toEqual(expected);
    expect(heard.reorgs).toEqual(orphanedByDevnet);
    expect(liveTxs.filter((txId) => heard.pending.get(txId) !== 1)).toEqual([]);

    const blocksFollowed = chain.tip.height - start + orphanedByDevnet.flat().length;
    const perBlock = sent.length / blocksFollowed;
    console.info(
      `block follower (seed ${seed}): ${sent.length} requests for ${blocksFollowed} blocks (${perBlock.toFixed(2)} a block) following ${watched.size} principals; errors: ${errors.map(String).join('; ')}`,
    );
    expect(perBlock).toBeLessThanOrEqual(3);

    // A follower restarted from what the first one stored reads the blocks mined meanwhile by height, once each.
    live.stop();
    feed.close();
    const restarted = recordingSink(watched);
    const resumed = new BlockFollower(countingGet(devnet.url).get, restarted.sink, { resumeFrom: live.recent() });
    follower = resumed;
    const stoppedAt = chain.tip.height;
    for (let missed = 0; missed < 3; missed++) {
      await traffic(chain, random, strangers);
      chain.mine();
    }
    resumed.poll();
    await expect.poll(() => resumed.tip?.hash).toBe(chain.tip.hash);
    await resumed.settled();
    expect(restarted.blocks).toEqual(expectedFrom(chain, stoppedAt + 1, watched));
    expect(restarted.reorgs).toEqual([]);
  });

  it('reads a block again after a failed read, though no other block comes', async () => {
    devnet = await startDevnet({ port: 0, blockMs: null, seed: 'follower-retry' });
    const { chain } = devnet.node;
    const counted = countingGet(devnet.url);
    // The node fails the block's transactions twice, then answers.
    let failing = 2;
    const get: NodeGet = (path) => {
      if (path.includes('/transactions') && failing > 0) {
        failing -= 1;
        return Promise.reject(new Error(`503 for ${path}`));
      }
      return counted.get(path);
    };
    const watched = new Set(chain.accounts.people.map((person) => person.address));
    const heard = recordingSink(watched);
    const errors: unknown[] = [];
    follower = new BlockFollower(get, heard.sink, {
      onError: (error) => errors.push(error),
      retry: { firstMs: 10, maxMs: 40 },
    });
    chain.mine();
    follower.poll();
    await expect.poll(() => follower!.tip?.hash).toBe(chain.tip.hash);
    const start = follower.tip!.height;
    const [alice, bob] = chain.accounts.people;
    await chain.submit(alice!.address, { kind: 'stx', recipient: bob!.address, amount: 1_000n, memo: '' });
    chain.mine();
    // The one announcement of the new block: its read fails, and nothing else is mined or polled by the test.
    follower.poll();
    await expect.poll(() => follower!.tip?.hash).toBe(chain.tip.hash);
    await follower.settled();
    expect(errors.map(String)).toEqual([expect.stringContaining('503'), expect.stringContaining('503')]);
    expect(heard.blocks.get(chain.tip.height)).toEqual(expectedFrom(chain, start + 1, watched).get(chain.tip.height));
    expect([...heard.blocks.get(chain.tip.height)!.touched.keys()].sort()).toEqual(
      [alice!.address, bob!.address].sort(),
    );
  });
});
