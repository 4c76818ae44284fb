import 'fake-indexeddb/auto';
import { c32address } from 'c32check';
import { SocketIoFeed } from '../src/chain/feed.ts';
import type { NodeConfig } from '../src/chain/networks.ts';
import { PageValidators } from '../src/chain/page-validators.ts';
import { StacksRestClient } from '../src/chain/rest-client.ts';
import { HostScheduler, PUBLIC_NODE_DEFAULTS } from '../src/chain/scheduler.ts';
import { memoryAnchor } from '../src/monitor/change-scout.ts';
import { NetworkMonitor } from '../src/monitor/network-monitor.ts';
import { SnapshotBook } from '../src/store/snapshot-book.ts';
import { startDevnet } from '../mocks/devnet/server.ts';
import { control } from './support.ts';

export interface ResumeFigures {
  readonly addresses: number;
  readonly budgetPerMinute: number;
  /** Transactions mined while the app was closed, and how many watched addresses they touched. */
  readonly touched: number;
  /** Other transactions mined meanwhile, in how many blocks. */
  readonly background: { readonly transactions: number; readonly blocks: number };
  /** From the resumed start until every address is synced again (fresh). */
  readonly secondsToFresh: number;
  readonly requests: number;
  readonly rateLimited: number;
}

export interface ResumeOptions {
  readonly addresses: number;
  readonly budgetPerMinute: number;
  readonly touched: number;
  readonly background: { readonly transactions: number; readonly blocks: number };
}

const principalsOf = (count: number) =>
  Array.from({ length: count }, (_, n) => c32address(26, `e${n.toString(16).padStart(39, '0')}`));

/**
 * A resume on a node that allows `budgetPerMinute` requests a minute (the public API without a key allows about
 * 24): `addresses` watched addresses synced before the app closed, a few of them touched meanwhile; the time until
 * every one is fresh again. The client keeps its validators (as the browser's HTTP cache does), so an untouched
 * history page costs one conditional request.
 */
export async function measureResume(options: ResumeOptions): Promise<ResumeFigures> {
  const { addresses, budgetPerMinute, touched, background } = options;
  const devnet = await startDevnet({ port: 0, blockMs: null });
  const principals = principalsOf(addresses);
  const book = new SnapshotBook();
  const clientLimits = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 4, perMinute: budgetPerMinute - 2 };
  const node: NodeConfig = { network: 'testnet', url: devnet.url, name: 'devnet', apiKey: null, limits: clientLimits };
  // What the browser's HTTP cache keeps across starts: the ETags learned before closing.
  const validators = new PageValidators();
  const rest = new StacksRestClient(
    node,
    new HostScheduler({ ...clientLimits, perMinute: 100_000, maxConcurrent: 8 }),
    undefined,
    { validators },
  );
  // What the app keeps across starts beside the snapshots: the block every address was last complete up to.
  const anchors = memoryAnchor();
  const open = (client: StacksRestClient) =>
    new NetworkMonitor({
      node,
      rest: client,
      book,
      anchors,
      openFeed: (handlers) => new SocketIoFeed(devnet.url, handlers, { transports: ['websocket'] }),
    });
  const allSynced = (since: number) =>
    new Promise<void>((resolve) => {
      const check = () => principals.every((principal) => (book.get(principal)?.syncedAt ?? 0) >= since) && resolve();
      book.changes.subscribe(check);
      check();
    });
  try {
    // Before closing: everything synced, without a budget.
    const first = open(rest);
    first.start(principals);
    await allSynced(0);
    await first.reconcile();
    first.stop();
    // While closed: a few transfers to watched addresses.
    const sender = devnet.node.chain.accounts.people[0]!.address;
    for (const principal of principals.slice(0, touched))
      await control(devnet, '/devnet/transfer', { sender, recipient: principal, amount: '1000' });
    // The rest of the chain's traffic meanwhile: transfers and token transfers among unwatched accounts.
    const people = devnet.node.chain.accounts.people;
    const tokens = devnet.node.chain.assets.tokens;
    for (let n = 0; n < background.transactions; n++) {
      const [from, to] = [people[(n % 3) + 1]!.address, people[((n + 1) % 3) + 1]!.address];
      if (n % 3 === 0)
        await control(devnet, '/devnet/ft-transfer', {
          sender: from,
          recipient: to,
          asset: tokens[n % tokens.length]!.symbol,
          amount: '1',
        });
      else await control(devnet, '/devnet/transfer', { sender: from, recipient: to, amount: String(1000 + n) });
      if ((n + 1) % Math.ceil(background.transactions / background.blocks) === 0)
        await control(devnet, '/devnet/mine', {});
    }
    await control(devnet, '/devnet/mine', {});

    devnet.node.faults.faults.budgetPerMinute = budgetPerMinute;
    let requests = 0;
    let rateLimited = 0;
    devnet.node.observe((_request, response) => {
      requests += 1;
      if (response.status === 429) rateLimited += 1;
    });
    // The resumed app: the same stored snapshots and validators, the node's budget now enforced.
    // It also remembers whether the node has the v3 routes, as the app keeps it across starts.
    const resumedRest = new StacksRestClient(node, new HostScheduler(clientLimits), undefined, {
      validators,
      knownV3: rest.usesV3,
    });
    const resumed = open(resumedRest);
    const started = Date.now();
    resumed.start(principals);
    await allSynced(started);
    resumed.stop();
    return {
      addresses,
      budgetPerMinute,
      touched,
      background,
      secondsToFresh: Math.round((Date.now() - started) / 100) / 10,
      requests,
      rateLimited,
    };
  } finally {
    await devnet.close();
  }
}
