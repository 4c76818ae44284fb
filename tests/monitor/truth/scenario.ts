import { createStore } from 'idb-keyval';
import type { TxEntry } from '../../../mocks/devnet/chain.ts';
import { devnetHandlers } from '../../../mocks/devnet/msw.ts';
import { DevnetNode } from '../../../mocks/devnet/node.ts';
import { SeededRandom } from '../../../mocks/devnet/random.ts';
import { RealtimeHub } from '../../../mocks/devnet/realtime.ts';
import { SocketIoFeed, type FeedHandlers } from '../../../src/chain/feed.ts';
import type { NodeConfig } from '../../../src/chain/networks.ts';
import { StacksRestClient } from '../../../src/chain/rest-client.ts';
import { StakingReader } from '../../../src/chain/staking-reader.ts';
import { HostScheduler, PUBLIC_NODE_DEFAULTS } from '../../../src/chain/scheduler.ts';
import { shortPrincipal } from '../../../src/domain/text/activity-text.ts';
import { DEFAULT_RULES } from '../../../src/domain/alerts/alert-rules.ts';
import { formatStx } from '../../../src/domain/amount.ts';
import { stakingView } from '../../../src/domain/text/staking-view.ts';
import { stxHeld } from '../../../src/domain/state/stx-held.ts';
import { itemTag, plainTitle } from '../../../src/domain/text/notification-content.ts';
import { memoryTray, sharedProblems, trayProblems } from './tray.ts';
import { NetworkMonitor } from '../../../src/monitor/network-monitor.ts';
import { Alerter } from '../../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../../src/store/alert-settings-store.ts';
import { Inbox } from '../../../src/store/inbox.ts';
import { SnapshotBook } from '../../../src/store/snapshot-book.ts';
import { NameBook } from '../../../src/store/name-book.ts';
import { TokenCatalog } from '../../../src/store/token-catalog.ts';
import { GlobalWebSocketTransport } from '../../devnet/support/transports.ts';
import { mswServer } from '../harness.ts';
import {
  claimsToTell,
  mempoolParties,
  nonceSpentByMined,
  toldAsRevert,
  toldByStaking,
  wordProblems,
} from './oracle.ts';
import { TruthBook } from './truth-book.ts';
import { StakingTimeline } from './staking-oracle.ts';
import { advanceCycle, togglePause } from './staking-traffic.ts';
import { Traffic } from './traffic.ts';

const ORIGIN = 'http://truth.test:3999';
let run = 0;

export interface TruthReport {
  readonly seed: number;
  readonly problems: string[];
  readonly transactions: number;
  readonly alerts: number;
  readonly faults: { reorgs: number; outages: number; drops: number; socketDrops: number; added: number };
  /**
   * What the run required to be told, so that a run of many seeds can show it proved something: unlocks at a cycle
   * boundary (no transaction of the address), mined reward claims of watched addresses, and staking cards of bond
   * holders (most hold a bond only: its STX are in no balance lock) checked against the ledger, and alerts of
   * transactions the miners skipped (problematic_skipped).
   */
  readonly required: {
    readonly unlocks: number;
    readonly claims: number;
    readonly bondCards: number;
    readonly skipped: number;
  };
}

/**
 * One seeded scenario at engine level: the devnet model behind MSW, the real monitor and alerter with their
 * stores, realistic traffic and faults, then the app's inbox, notifications and activity compared with the truth
 * computed from the devnet's ledger. Block times lag the device clock, and the device clock is skewed, by seeded
 * amounts.
 */
export async function runTruth(seed: number, steps = 36): Promise<TruthReport> {
  const random = new SeededRandom(`truth/${seed}`);
  const lagMs = random.int(0, 8) * 60_000;
  const skewMs = random.int(-600, 600) * 1000;
  const deviceNow = () => Date.now() + skewMs;
  const devnet = new DevnetNode({ blockMs: null, seed: `truth-${seed}`, now: () => Date.now() - lagMs });
  const hub = new RealtimeHub(devnet.chain);
  mswServer().resetHandlers(...devnetHandlers(devnet, hub, ORIGIN));
  const chain = devnet.chain;
  const traffic = new Traffic(chain, random, { staking: true, skip: new SeededRandom(`truth/${seed}/skipped`) });
  const { people, treasury, vault, deployer } = chain.accounts;
  const candidates = [...people, treasury, vault, deployer].map((account) => ({
    address: account.address,
    label: account.label,
  }));
  const faults = { reorgs: 0, outages: 0, drops: 0, socketDrops: 0, added: 0 };

  // What the node's feed told the app pending: the `mempool` frames that reached its socket and were handed on before
  // the socket dropped. One its socket took in as it dropped is handed on at the next connect (Socket.IO keeps what
  // comes while disconnected for then), after the app may have read it mined.
  const framed = new Set<string>();
  const handedOn = new Set<string>();
  const cutOff = new Set<string>();
  const truth = new TruthBook(chain, (txId) => framed.has(txId) && (handedOn.has(txId) || !cutOff.has(txId)));
  const staking = new StakingTimeline(chain);
  const addedAt = truth.addedAt;
  const watches = truth.watches;
  // Some history before anything is watched, long for some seeds (hundreds of transactions).
  const warmup = random.chance(0.1) ? 240 : random.int(0, 30);
  for (let i = 0; i < warmup; i++) {
    await traffic.act();
    if (i % 12 === 11) chain.mine();
  }
  chain.mine();
  // Some people staked before, and reward cycles went by: their rewards are claimable during the run.
  for (const person of people) if (random.chance(0.5)) await traffic.stake(person.address);
  chain.mine();
  for (let cycles = random.int(0, 2); cycles > 0; cycles--) advanceCycle(chain);

  const id = ++run;
  const limits = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 8, perMinute: 100_000, baseDelayMs: 5, maxDelayMs: 50 };
  const node: NodeConfig = { network: 'testnet', url: ORIGIN, name: 'Truth devnet', apiKey: null, limits };
  const scheduler = new HostScheduler(limits);
  const rest = new StacksRestClient(node, scheduler);
  const book = new SnapshotBook(createStore(`truth-snapshots-${id}`, 'by-principal'));
  const tokens = new TokenCatalog(createStore(`truth-tokens-${id}`, 'metadata'));
  const nameBook = new NameBook(createStore(`truth-names-${id}`, 'by-principal'));
  const inbox = new Inbox(createStore(`truth-inbox-${id}`, 'alerts'));
  const settings = new AlertSettingsStore(createStore(`truth-settings-${id}`, 'records'));
  const problems: string[] = [];
  const tray = memoryTray(inbox, (problem) => problems.push(`tray: ${problem}`));
  const { screen } = tray;
  const labels = new Map(candidates.map((candidate) => [candidate.address, candidate.label]));
  const names = new Map([...chain.names].map(([name, owner]) => [owner, name]));
  /** A party as the words may name it: its label once watched (or its BNS name, if it was not yet), else short. */
  const nameOf = (principal: string) =>
    [addedAt.has(principal) ? labels.get(principal) : undefined, names.get(principal) ?? shortPrincipal(principal)]
      .filter(Boolean)
      .join('|');
  /** Every call the feed made into the monitor (an event, a state, a connect): a quiet turn hears none. */
  let heard = 0;
  /** `mempool` frames the socket took in that the feed has not handed on yet. */
  const onTheirWay = new Set<string>();
  const counted = (handlers: FeedHandlers): FeedHandlers => {
    const hearing = {} as Record<string, (...args: unknown[]) => void>;
    for (const [name, handle] of Object.entries(handlers) as [string, (...args: unknown[]) => void][])
      hearing[name] = (...args) => {
        heard += 1;
        const txId = name === 'onMempool' ? txIdOf(args[0]) : undefined;
        if (txId && onTheirWay.delete(txId)) handedOn.add(txId);
        if (name === 'onState' && args[0] !== 'live') {
          onTheirWay.forEach((txId) => cutOff.add(txId));
          onTheirWay.clear();
        }
        handle(...args);
      };
    return hearing as unknown as FeedHandlers;
  };
  const alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`truth-ledgers-${id}`, 'by-address')),
    inbox,
    settings,
    watched: (network, principal) => {
      const at = addedAt.get(principal);
      return network === 'testnet' && at !== undefined ? { addedAt: at } : undefined;
    },
    snapshot: (principal) => book.get(principal),
    text: {
      label: (principal) => (addedAt.has(principal) ? (labels.get(principal) ?? '') : ''),
      // As the app does: a watched address by its label, any other by the BNS name the engine looked up.
      nameOf: (principal) =>
        (addedAt.has(principal) ? labels.get(principal) : undefined) || nameBook.get(principal) || null,
      token: (asset) => tokens.get(asset),
    },
    deliver: tray.deliver,
    now: deviceNow,
    limits: { singles: 3, windowMs: 60_000, perBatch: 4 },
    report: (problem) => problems.push(`alerter: ${problem}`),
  });
  const monitor = new NetworkMonitor({
    node,
    rest,
    book,
    tokens,
    names: nameBook,
    now: deviceNow,
    openFeed: (handlers) =>
      new SocketIoFeed(ORIGIN, counted(handlers), {
        transports: [
          observedTransport((txId) => {
            framed.add(txId);
            onTheirWay.add(txId);
          }),
        ],
        reconnectionDelay: 30,
        reconnectionDelayMax: 150,
      }),
    retryMs: 100,
    feedlessSyncMs: 300,
    restPollMs: 500,
    sink: alerter,
    staking: new StakingReader(node, scheduler),
  });

  const watch = async (candidate: { address: string; label: string }) => {
    // Every incoming token is told: whether the address held it before is not what this test judges.
    await settings.setRules('testnet', candidate.address, { ...DEFAULT_RULES, unsolicitedGuard: false });
    truth.watch(candidate.address, candidate.label, deviceNow());
    staking.watch(candidate.address);
    faults.added += 1;
  };

  /**
   * Waits until the app has handled everything the node told it: the monitor has handed all it learned to the
   * alerter, the alerter has judged, stored and shown it, and a whole turn of the event loop then went by in which the
   * feed handed the monitor nothing new. The devnet's frames reach the feed within the turn they are sent (one
   * connection, in order), so a quiet turn means nothing the node said is still on its way or half handled.
   */
  const quiet = async () => {
    for (let before = -1; before !== heard;) {
      before = heard;
      await monitor.settled();
      await alerter.idle();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  /** Waits until the app knows what the chain says of every watched principal, and everything was judged. */
  const settle = async (timeoutMs = 8000) => {
    // While the node is down there is nothing to catch up with.
    if (truth.isDown) return;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lagging = watches.filter(({ principal }) => !caughtUp(principal));
      if (lagging.length === 0 && atTip()) {
        await quiet();
        if (watches.every(({ principal }) => caughtUp(principal)) && atTip()) {
          staking.settled();
          truth.settled();
          return;
        }
      } else if (Date.now() > deadline) {
        problems.push(
          `the app did not catch up with ${lagging.map((w) => `${w.label} (${lagReason(w.principal)})`).join(', ')} in ${timeoutMs} ms`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  // The app has met the newest block: the staking reads it makes at every burn block are of the chain as it is.
  const atTip = () => monitor.status.tip?.height === chain.tip.height;
  const lagReason = (principal: string): string => {
    const snapshot = book.get(principal);
    if (!snapshot?.syncedAt) return 'never synced';
    const newest = chain.transactionsOf(principal)[0];
    const pending = chain.pendingOf(principal).map((entry) => entry.signed.txId.slice(0, 8));
    return `newest ${newest?.signed.txId.slice(0, 8)} known ${snapshot.recent.some((a) => a.txId === newest?.signed.txId)}; pending app ${snapshot.pending.map((a) => a.txId.slice(0, 8)).join(' ')} / chain ${pending.join(' ')}; problems ${monitor.status.problem}; feed ${monitor.status.feed}; syncing ${monitor.status.syncing}`;
  };
  const caughtUp = (principal: string): boolean => {
    const snapshot = book.get(principal);
    if (!snapshot?.syncedAt) return false;
    const newest = chain.transactionsOf(principal)[0];
    if (newest && !snapshot.recent.some((activity) => activity.txId === newest.signed.txId)) return false;
    const pending = new Set(chain.pendingOf(principal).map((entry) => entry.signed.txId));
    return snapshot.pending.length === pending.size && snapshot.pending.every((activity) => pending.has(activity.txId));
  };

  const first = random.int(2, 4);
  const order = [...candidates].sort(() => random.next() - 0.5);
  for (const candidate of order.slice(0, first)) await watch(candidate);
  const waiting = order.slice(first);
  monitor.start([...addedAt.keys()]);
  await settle();

  let outageEnds = -1;
  const endOutage = async () => {
    devnet.outage(0);
    truth.outageEnded();
    await settle(10_000);
  };
  try {
    for (let step = 0; step < steps; step++) {
      if (truth.isDown && step >= outageEnds) await endOutage();
      const roll = random.next();
      if (roll < 0.4) for (let i = random.int(1, 3); i > 0; i--) await traffic.act();
      else if (roll < 0.52) chain.mine();
      else if (roll < 0.6) advanceCycle(chain);
      else if (roll < 0.66) await settle();
      else if (roll < 0.72 && !truth.isDown && chain.tip.height > 5) {
        await settle();
        const depth = random.int(1, 3);
        truth.beforeReorg(depth);
        chain.reorg(depth);
        faults.reorgs += 1;
      } else if (roll < 0.77 && !truth.isDown && chain.pending().length > 0) {
        await settle();
        const victim = random.pick(chain.pending());
        if (random.chance(0.5)) await chain.replaceByFee(victim.signed.txId);
        else
          chain.drop(
            victim.signed.txId,
            random.pick(['dropped_too_expensive', 'dropped_stale_garbage_collect', 'dropped_problematic'] as const),
          );
        faults.drops += 1;
      } else if (roll < 0.82 && !truth.isDown) {
        await devnet.handle({
          method: 'POST',
          url: new URL(`${ORIGIN}/devnet/faults`),
          headers: {},
          body: '{"disconnect":true}',
        });
        faults.socketDrops += 1;
      } else if (roll < 0.87 && !truth.isDown) {
        devnet.outage(600_000);
        truth.outageBegins();
        outageEnds = step + random.int(2, 6);
        faults.outages += 1;
      } else if (roll < 0.95 && !truth.isDown && waiting.length > 0) {
        await settle();
        // Sometimes with more pending than one page of the node's mempool list holds.
        if (random.chance(0.4)) await traffic.burst(random.int(51, 60));
        // What the node said before the address is added has reached the app and been handled (a person adds one
        // seconds, not milliseconds, after a transaction); the burst's own catching up may still be under way.
        await quiet();
        await watch(waiting.shift()!);
        await monitor.setPrincipals([...addedAt.keys()]);
        await settle();
      } else if (roll < 0.985) await traffic.act();
      else await togglePause(chain);
      // Live events are handled between steps, as on a real node where time passes.
      if (!truth.isDown && random.chance(0.5)) await new Promise((resolve) => setTimeout(resolve, random.int(0, 15)));
    }
    if (truth.isDown) await endOutage();
    await settle(10_000);

    const expected = truth.expected();
    const all = inbox.list();
    // Transactions' alerts here; staking's (of no transaction) against the staking timeline below.
    const entries = all.filter((entry) => entry.txId !== null);
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    const expectedIds = new Set(expected.map((item) => item.id));
    for (const item of expected) {
      const entry = byId.get(item.id);
      const who = `${labels.get(item.principal)} ${item.txId.slice(0, 10)} (${describeTx(item.entry)})`;
      if (!entry) {
        if (!item.optional) problems.push(`missing alert: ${who} should be "${item.phase}"`);
        continue;
      }
      if (entry.phase !== item.phase)
        problems.push(`${who}: inbox says "${entry.phase}" (${entry.title}), truth is "${item.phase}"`);
      else for (const problem of wordProblems(chain, item, entry, nameOf)) problems.push(`${who}: ${problem}`);
      if (entry.undelivered) problems.push(`${who}: stored but never shown`);
      // A stake, update or unstake of the principal's own is told by its staking alert: its call stays in the inbox,
      // once the app had read the principal's staking when it was sent (a first read is history, never told); but not
      // back in the mempool after a re-org took its block, which tells that revert (the stake told is undone).
      const quietAllowed = toldByStaking(chain, entry) && !toldAsRevert(item, entry);
      if (entry.quiet && !quietAllowed)
        problems.push(`${who}: kept in the inbox only, though no staking alert tells it`);
      // An earlier state shown (a failure or a revert, then back in the mempool) is replaced by this one as ever.
      const shownBefore = entry.deliveries.slice(0, -1).some((delivery) => delivery.via !== 'inbox');
      if (quietAllowed && !entry.quiet && !shownBefore && truth.caughtUpWhenSubmitted(item.txId, item.principal))
        problems.push(`${who}: "${entry.title}" told on its own, though a staking alert tells what it did`);
      if (entry.quiet && entry.deliveries.some((delivery) => delivery.via !== 'inbox'))
        problems.push(
          `${who}: a quiet state shown (${entry.deliveries.map((d) => `${d.phase} via ${d.via}`).join(', ')})`,
        );
      // On screen, the alert is in a notification, and one of its own tells its state now (not a revert since undone);
      // but a dropped transaction whose nonce the ledger has spent by a mined one (a fee bump's replacement, or a
      // stale one's nonce used again) may have left the tray.
      const replacedAndMined = nonceSpentByMined(chain, item.txId);
      if (
        !entry.quiet &&
        !replacedAndMined &&
        ![...screen.values()].some((content) => content.data.ids.includes(entry.id))
      )
        problems.push(`${who}: in the inbox, in no notification on screen`);
      const single = screen.get(itemTag(entry.id));
      if (single && plainTitle(single.title) !== entry.title)
        problems.push(`${who}: its notification says "${single.title}", the inbox "${entry.title}"`);
      // A state may come again only after a revert or a drop (mined again on the new fork, broadcast again); a failure
      // only as another failure the ledger mined it with on a new fork (the revert between perhaps never heard).
      const phases = entry.deliveries.map((delivery) => delivery.phase);
      const again = phases.filter((phase, i) => i > 0 && phases[i - 1] === phase);
      if (again.some((phase) => phase !== 'failed') || again.length > truth.failureChanges(item.txId))
        problems.push(`${who}: a state shown twice (${phases.join(', ')})`);
    }
    problems.push(
      ...trayProblems(
        screen,
        all,
        (entry) => `${labels.get(entry.principal)} ${entry.txId?.slice(0, 10) ?? entry.title}`,
        (principal) => labels.get(principal) ?? principal,
      ),
    );
    // A transaction between watched addresses told as one (a transfer, a call to the watched vault, a token or a mint
    // sent to a watched address), its addresses watched when it was sent.
    problems.push(
      ...sharedProblems(screen, entries, (txId, principal) => truth.caughtUpWhenSubmitted(txId, principal)),
    );
    problems.push(...staking.problems(all, (principal) => labels.get(principal) ?? principal));
    // Each staking card as the address page draws it from what the app stored, against the ledger.
    problems.push(
      ...staking.cardProblems(
        (principal) =>
          stakingView(book.get(principal)?.staking, book.get(principal)?.recent ?? [], chain.tip.burnHeight),
        (principal) => {
          const snapshot = book.get(principal);
          return snapshot?.stx ? stxHeld(snapshot.stx, snapshot.staking).available : null;
        },
        (principal) => labels.get(principal) ?? principal,
      ),
    );
    for (const entry of all.filter((item) => item.txId === null)) {
      if (entry.undelivered) problems.push(`${labels.get(entry.principal)} "${entry.title}": stored but never shown`);
      if (![...screen.values()].some((content) => content.data.ids.includes(entry.id)))
        problems.push(`${labels.get(entry.principal)} "${entry.title}": in the inbox, in no notification on screen`);
    }
    // A transfer between two watched addresses told as one: its parties and amount as the ledger has them.
    for (const content of screen.values()) {
      if (!content.data.pair || content.data.ids.length < 2) continue;
      const signed = chain.tx(content.data.pair.key.split(':')[1]!)?.signed;
      const intent = signed?.intent;
      // Who paid whom, and how much STX, by the ledger's own record of what was asked.
      const [from, to, amount] =
        intent?.kind === 'stx'
          ? [signed!.sender, intent.recipient, formatStx(intent.amount)]
          : intent?.kind === 'vault-withdraw'
            ? [intent.vault, signed!.sender, formatStx(intent.amount)]
            : intent?.kind === 'vault-deposit'
              ? [signed!.sender, intent.vault, formatStx(intent.amount)]
              : [signed?.sender ?? '', intent && 'recipient' in intent ? intent.recipient : '', null];
      // A notification's title leads with the amount, its names cut to 16 characters (a phone shows one line).
      const clip = (name = '') => ([...name].length > 16 ? `${[...name].slice(0, 15).join('')}…` : name);
      const parties = `${clip(labels.get(from))} → ${clip(labels.get(to))}`;
      // A call to a watched contract, while it moved nothing (pending, dropped): who called which function of it.
      const calls =
        intent?.kind === 'vault-withdraw' || intent?.kind === 'vault-deposit'
          ? [
              `${clip(labels.get(signed!.sender))} → ${intent.vault.split('.')[1]}.${intent.kind.slice('vault-'.length)}`,
            ]
          : [];
      // A token or an NFT moved (an amount the intent leaves to the contract) before the parties; or who sent to whom.
      const says = (words: string) =>
        calls.some((call) => words.startsWith(call)) ||
        (amount !== null
          ? words.startsWith(`${amount} · ${parties}`)
          : words.includes(` · ${parties}`) || words.startsWith(parties));
      const wants = [...calls, amount !== null ? `${amount} · ${parties}` : parties];
      // A failure, a revert or a drop says so first, as one of its sides' states on the notification says; a failure
      // the miners skipped (the ledger's problematic_skipped) is called skipped, never failed.
      const prefix =
        /^(Failed|Skipped as problematic|Reverted — back in the mempool|Reverted|Dropped|Fee raised|Replaced): /.exec(
          content.title,
        );
      const words = prefix ? content.title.slice(prefix[0].length) : content.title;
      const phases = Object.values(content.phases ?? {});
      const entry = chain.tx(content.data.pair.key.split(':')[1]!);
      const skipped = entry?.state.kind === 'confirmed' && entry.state.outcome.status === 'problematic_skipped';
      const phaseOf = {
        Failed: 'failed',
        'Skipped as problematic': 'failed',
        Reverted: 'reverted',
        'Reverted — back in the mempool': 'pending',
        Dropped: 'dropped',
        'Fee raised': 'dropped',
        Replaced: 'dropped',
      };
      if (
        !says(words) ||
        (prefix && !phases.includes(phaseOf[prefix[1] as keyof typeof phaseOf] as (typeof phases)[number])) ||
        (prefix?.[1] === 'Failed' && skipped) ||
        (prefix?.[1] === 'Skipped as problematic' && !skipped) ||
        content.data.ids.some((id) => !id.endsWith(`:${signed?.txId}`))
      )
        problems.push(
          `a pair notification says "${content.title}" (${phases.join(', ')}) for ${content.data.ids.join(', ')}: want "${wants.join('" or "')}…"`,
        );
    }
    for (const entry of entries)
      if (!expectedIds.has(entry.id))
        problems.push(
          `unexpected alert: ${labels.get(entry.principal)} "${entry.title}" (${entry.phase}) for ${entry.txId?.slice(0, 10)} (${describeTx(chain.tx(entry.txId!))})`,
        );
    for (const { principal, label } of watches) problems.push(...activityProblems(principal, label));
    const required = {
      unlocks: staking.required.get('unlock') ?? 0,
      claims: claimsToTell(expected),
      bondCards: staking.bondCards,
      skipped: expected.filter((item) => item.skipped && !item.optional).length,
    };
    return { seed, problems, transactions: truth.transactions, alerts: entries.length, faults, required };
  } finally {
    truth.close();
    staking.close();
    monitor.stop();
    hub.close();
    devnet.close();
  }

  function activityProblems(principal: string, label: string): string[] {
    const snapshot = book.get(principal);
    if (!snapshot) return [`${label}: no snapshot`];
    const found: string[] = [];
    const truth = chain.transactionsOf(principal);
    const recent = snapshot.recent;
    const boundary = recent.at(-1)?.blockHeight ?? 0;
    const truthAbove = truth.filter((entry) => entry.state.kind === 'confirmed' && entry.state.block.height > boundary);
    const appIds = new Set(recent.map((activity) => activity.txId));
    const canonical = new Set(truth.map((entry) => entry.signed.txId));
    for (const entry of truthAbove)
      if (!appIds.has(entry.signed.txId))
        found.push(`${label}: activity lacks ${entry.signed.txId.slice(0, 10)} (${describeTx(entry)})`);
    for (const activity of recent) {
      if (!canonical.has(activity.txId))
        found.push(`${label}: activity shows ${activity.txId.slice(0, 10)}, not on the chain`);
      const entry = chain.tx(activity.txId);
      if (entry?.state.kind === 'confirmed') {
        const status = entry.state.outcome.status === 'success' ? 'success' : 'failed';
        if (activity.status !== status)
          found.push(`${label}: ${activity.txId.slice(0, 10)} shown ${activity.status}, is ${status}`);
      }
    }
    if (recent.length < Math.min(20, truth.length))
      found.push(`${label}: activity lists ${recent.length} of ${truth.length}`);
    const pending = chain.pendingOf(principal).map((entry) => entry.signed.txId);
    const appPending = new Set(snapshot.pending.map((activity) => activity.txId));
    if (pending.length !== appPending.size || pending.some((txId) => !appPending.has(txId)))
      found.push(`${label}: pending shown ${appPending.size}, truth ${pending.length}`);
    return found;
  }
}

/**
 * The feed's transport, noting each transaction a `mempool` frame brought to the app's socket (Engine.IO message,
 * Socket.IO event: `42["mempool",{…}]`), below the app's own reading of it.
 */
function observedTransport(delivered: (txId: string) => void): typeof GlobalWebSocketTransport {
  return class extends GlobalWebSocketTransport {
    override createSocket(uri: string, protocols: string | string[] | undefined): WebSocket {
      const socket = super.createSocket(uri, protocols);
      socket.addEventListener('message', ({ data }: MessageEvent) => {
        if (typeof data !== 'string' || !data.startsWith('42["mempool",')) return;
        const txId = txIdOf((JSON.parse(data.slice(2)) as unknown[])[1]);
        if (txId) delivered(txId);
      });
      return socket;
    }
  };
}

const txIdOf = (payload: unknown): string | undefined => {
  const txId = (payload as { tx_id?: unknown } | null)?.tx_id;
  return typeof txId === 'string' ? txId : undefined;
};

function describeTx(entry: TxEntry | undefined): string {
  if (!entry) return 'unknown';
  const { intent } = entry.signed;
  const state =
    entry.state.kind === 'confirmed'
      ? `${entry.state.outcome.status} at ${entry.state.block.height}`
      : entry.state.kind === 'dropped'
        ? entry.state.status
        : 'pending';
  return `${intent.kind}, ${state}, parties ${mempoolParties(entry).map(shortPrincipal).join(' ')}`;
}
