import { createDemoAccounts, type DemoAccounts } from './accounts.ts';
import { createDemoAssets, type DemoAssets, type FungibleToken } from './assets.ts';
import { FIRST_BURN_HEIGHT, allocateGenesis } from './genesis.ts';
import type { BlockRecord, ChainEvent, DropStatus, TxEntry } from './chain-types.ts';
import { Ledger } from './ledger.ts';
import { derivedHex } from './random.ts';
import { signIntent, type Intent, type SignedTx, type Signer } from './transactions.ts';

export type { BlockRecord, ChainEvent, DropStatus, TxEntry, TxState } from './chain-types.ts';

export class ChainError extends Error {}

const MAX_TXS_PER_BLOCK = 1000;
const KEPT_SNAPSHOTS = 64;
export const MAX_REORG_DEPTH = KEPT_SNAPSHOTS - 1;

/**
 * The simulated chain: one model behind the HTTP server, the Socket.IO feed and the MSW handlers.
 * Everything a node would decide (ordering, success, balances) is decided here; adapters only translate.
 */
export class DevnetChain {
  readonly accounts: DemoAccounts;
  readonly assets: DemoAssets;
  /** BNS names registered on the devnet, name → owner. */
  readonly names: Map<string, string>;
  private ledger = new Ledger();
  private readonly snapshots = new Map<number, Ledger>();
  private readonly canonical: BlockRecord[] = [];
  private readonly txs = new Map<string, TxEntry>();
  /** Pending entries only, so that mempool questions do not scan the whole history. */
  private readonly mempool = new Map<string, TxEntry>();
  private readonly byPrincipal = new Map<string, TxEntry[]>();
  private readonly listeners = new Set<(event: ChainEvent) => void>();
  private fork = 0;

  constructor(
    readonly seed: string,
    private readonly now: () => number = Date.now,
  ) {
    this.accounts = createDemoAccounts(seed);
    this.assets = createDemoAssets(this.accounts.deployer.address);
    this.names = new Map([
      ...this.accounts.people.map((person) => [`${person.label.toLowerCase()}.btc`, person.address] as const),
      ['treasury.btc', this.accounts.treasury.address],
    ]);
    allocateGenesis(this.ledger, this.accounts, this.assets, seed);
    this.appendBlock([]);
  }

  /**
   * A token contract deployed by `deployer` with metadata of its author's choosing (a scammer's markup, bidi
   * overrides, lookalike symbols): the metadata route serves it as given.
   */
  deployToken(
    deployer: string,
    spec: { contract: string; name: string; symbol: string; decimals: number },
  ): FungibleToken {
    const contractId = `${deployer}.${spec.contract}`;
    if (this.assets.tokens.some((token) => token.contractId === contractId))
      throw new ChainError(`${contractId} is already deployed`);
    const token: FungibleToken = {
      assetIdentifier: `${contractId}::${spec.contract}`,
      contractId,
      assetName: spec.contract,
      name: spec.name,
      symbol: spec.symbol,
      decimals: spec.decimals,
      totalSupply: 0n,
    };
    this.assets.tokens.push(token);
    return token;
  }

  subscribe(listener: (event: ChainEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: ChainEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  // ---- reading -------------------------------------------------------------------------------------------

  get tip(): BlockRecord {
    const tip = this.canonical.at(-1);
    if (!tip) throw new Error('the chain has no blocks');
    return tip;
  }

  get state(): Ledger {
    return this.ledger;
  }

  block(height: number): BlockRecord | undefined {
    return this.canonical[height - 1];
  }

  /** A canonical block by its hash or index hash. */
  blockByHash(hash: string): BlockRecord | undefined {
    return this.canonical.find((block) => block.hash === hash || block.indexHash === hash);
  }

  tx(txId: string): TxEntry | undefined {
    return this.txs.get(txId.toLowerCase().startsWith('0x') ? txId.toLowerCase() : `0x${txId.toLowerCase()}`);
  }

  /** Confirmed canonical transactions touching a principal, newest first. */
  transactionsOf(principal: string): readonly TxEntry[] {
    return [...(this.byPrincipal.get(principal) ?? [])].reverse();
  }

  /** Every confirmed canonical transaction, newest first: by height, then by position in its block. */
  minedNewestFirst(): TxEntry[] {
    const mined: TxEntry[] = [];
    for (let index = this.canonical.length - 1; index >= 0; index--) {
      const ids = this.canonical[index]!.txIds;
      for (let position = ids.length - 1; position >= 0; position--) {
        const entry = this.txs.get(ids[position]!);
        if (entry) mined.push(entry);
      }
    }
    return mined;
  }

  pending(): TxEntry[] {
    return [...this.mempool.values()];
  }

  pendingOf(principal: string): TxEntry[] {
    return this.pending().filter((entry) => principalsOf(entry).includes(principal));
  }

  /** The next nonce for an account, counting the pending transactions it sent or sponsors. */
  nextNonce(account: string): number {
    const used = this.pending().flatMap(({ signed }) => [
      ...(signed.sender === account ? [signed.nonce + 1] : []),
      ...(signed.sponsor?.address === account ? [signed.sponsor.nonce + 1] : []),
    ]);
    return Math.max(this.ledger.nonce(account), ...used);
  }

  signer(address: string): Signer {
    const account = this.accounts.all.find((candidate) => candidate.address === address);
    if (!account) throw new ChainError(`${address} is not a devnet account whose keys the devnet holds`);
    if (account.kind === 'contract') throw new ChainError(`${address} is a contract: it cannot sign transactions`);
    return account;
  }

  // ---- writing -------------------------------------------------------------------------------------------

  /**
   * Signs a transaction for a devnet account and puts it in the mempool; with `sponsor`, that account pays the fee
   * (a sponsored transaction).
   */
  async submit(sender: string, intent: Intent, fee = 300n, options: { sponsor?: string } = {}): Promise<TxEntry> {
    const signer = this.signer(sender);
    const sponsor = options.sponsor === undefined ? null : this.signer(options.sponsor);
    if (sponsor?.kind === 'multi-sig') throw new ChainError(`${sponsor.address} is a multi-sig: it cannot sponsor`);
    if (sponsor && sponsor.address === sender) throw new ChainError('a transaction cannot sponsor itself');
    this.checkAffordable(sender, intent, sponsor ? 0n : fee);
    if (sponsor) this.checkAffordable(sponsor.address, { kind: 'stx', recipient: sender, amount: 0n, memo: '' }, fee);
    const sponsorship = sponsor ? { signer: sponsor, nonce: this.nextNonce(sponsor.address) } : null;
    const signed = await signIntent(signer, intent, this.nextNonce(sender), fee, sponsorship);
    return this.accept(signed);
  }

  /**
   * Puts a transaction signed earlier (`signIntent`, its nonce counted by the caller) in the mempool, as a broadcast
   * would: a load generator signs its traffic ahead and spends no CPU on signatures while it measures.
   */
  submitSigned(signed: SignedTx): TxEntry {
    if (signed.sponsor) throw new ChainError('a sponsored transaction goes through submit, which checks its sponsor');
    this.checkAffordable(signed.sender, signed.intent, signed.sponsor ? 0n : signed.fee);
    const next = this.nextNonce(signed.sender);
    if (signed.nonce !== next)
      throw new ChainError(`${signed.sender} signed nonce ${signed.nonce}; the next is ${next}`);
    return this.accept(signed);
  }

  private accept(signed: SignedTx): TxEntry {
    const entry: TxEntry = {
      signed,
      // Never before its tip's time: blocks mined faster than one a second run ahead of the clock (each a second
      // after its parent), and a transaction heard after a block is, on a real node, heard after that block's time.
      receiptTime: Math.max(Math.floor(this.now() / 1000), this.tip.time),
      receiptHeight: this.tip.height,
      state: { kind: 'pending' },
    };
    this.txs.set(signed.txId, entry);
    this.mempool.set(signed.txId, entry);
    this.emit({ type: 'mempool', tx: entry });
    return entry;
  }

  private checkAffordable(sender: string, intent: Intent, fee: bigint): void {
    const pendingOut = this.pending().reduce((total, { signed }) => {
      const payer = signed.sponsor?.address ?? signed.sender;
      const amount = signed.sender === sender && signed.intent.kind === 'stx' ? signed.intent.amount : 0n;
      return total + (payer === sender ? signed.fee : 0n) + amount;
    }, 0n);
    const needed = fee + (intent.kind === 'stx' ? intent.amount : 0n) + pendingOut;
    const available = this.ledger.available(sender);
    if (available < needed) {
      throw new ChainError(
        `${sender} has ${available} micro-STX available; this needs ${needed} (amount, fee and pending transactions)`,
      );
    }
  }

  /** Replaces a pending transaction by the same one with a higher fee, as a wallet's "speed up" does. */
  async replaceByFee(txId: string): Promise<TxEntry> {
    const old = this.tx(txId);
    if (!old || old.state.kind !== 'pending') throw new ChainError(`${txId} is not pending`);
    const replacement = await signIntent(
      this.signer(old.signed.sender),
      old.signed.intent,
      old.signed.nonce,
      old.signed.fee * 2n,
    );
    old.state = { kind: 'dropped', status: 'dropped_replace_by_fee', replacedBy: replacement.txId };
    this.mempool.delete(old.signed.txId);
    this.emit({ type: 'dropped', tx: old });
    return this.accept(replacement);
  }

  drop(txId: string, status: DropStatus): TxEntry {
    const entry = this.tx(txId);
    if (!entry || entry.state.kind !== 'pending') throw new ChainError(`${txId} is not pending`);
    entry.state = { kind: 'dropped', status, replacedBy: null };
    this.mempool.delete(entry.signed.txId);
    this.emit({ type: 'dropped', tx: entry });
    return entry;
  }

  /** Mines one block from the mempool, in receipt order, each sender's nonces in sequence. */
  mine(): BlockRecord {
    return this.mineWithout(new Set());
  }

  /** Mines one block from the mempool, leaving out the transactions `unseen` (a competing miner never had them). */
  private mineWithout(unseen: ReadonlySet<string>): BlockRecord {
    const included: SignedTx[] = [];
    let candidates = this.pending()
      .filter((entry) => !unseen.has(entry.signed.txId))
      .sort((a, b) => a.receiptTime - b.receiptTime || a.signed.nonce - b.signed.nonce);
    const next = this.ledger.clone();
    let progress = true;
    while (progress && included.length < MAX_TXS_PER_BLOCK) {
      progress = false;
      const waiting: TxEntry[] = [];
      for (const entry of candidates) {
        if (included.length >= MAX_TXS_PER_BLOCK || !next.canPayFee(entry.signed)) {
          waiting.push(entry);
          continue;
        }
        next.apply(entry.signed, { height: this.tip.height + 1, burnHeight: this.tip.burnHeight + 1 });
        included.push(entry.signed);
        progress = true;
      }
      candidates = waiting;
    }
    return this.appendBlock(included);
  }

  /**
   * Orphans the newest `depth` blocks and replaces them by a longer fork, as a real node sees a competing miner's
   * chain win: the orphaned blocks' transactions go back to the mempool (a real node does not drop them) and are
   * mined again by the next block when still valid, so a sender's later transactions never wait on a missing nonce.
   * The fork's own blocks are a miner's that never saw them: they hold only what else was pending.
   */
  reorg(depth: number): { orphaned: BlockRecord[]; tip: BlockRecord } {
    if (!Number.isInteger(depth) || depth < 1 || depth > Math.min(MAX_REORG_DEPTH, this.canonical.length - 1)) {
      throw new ChainError(
        `depth must be a whole number from 1 to ${Math.min(MAX_REORG_DEPTH, this.canonical.length - 1)}`,
      );
    }
    const orphaned = this.canonical.splice(this.canonical.length - depth, depth);
    const txs = orphaned.flatMap((block) => {
      block.canonical = false;
      return block.txIds.flatMap((txId) => this.txs.get(txId) ?? []);
    });
    const base = this.snapshots.get(this.tip.height);
    if (!base) throw new Error(`no snapshot at height ${this.tip.height}`);
    this.ledger = base.clone();
    this.rebuildPrincipalIndex();
    this.fork += 1;
    for (const entry of txs) {
      entry.state = { kind: 'pending' };
      this.mempool.set(entry.signed.txId, entry);
    }
    this.emit({ type: 'reorg', orphaned, txs });
    const returned = new Set(txs.map((entry) => entry.signed.txId));
    for (let i = 0; i <= depth; i++) this.mineWithout(returned);
    for (const entry of txs) if (entry.state.kind === 'pending') this.emit({ type: 'mempool', tx: entry });
    return { orphaned, tip: this.tip };
  }

  // ---- internals -----------------------------------------------------------------------------------------

  private appendBlock(included: readonly SignedTx[]): BlockRecord {
    const parent = this.canonical.at(-1);
    const height = (parent?.height ?? 0) + 1;
    const burnHeight = (parent?.burnHeight ?? FIRST_BURN_HEIGHT - 1) + 1;
    const time = Math.max(Math.floor(this.now() / 1000), (parent?.time ?? 0) + 1);
    const txIds = included.map((tx) => tx.txId);
    // A block's hash commits to its parent, its time and its transactions, as a real one does: a devnet restarted
    // from the same seed has other blocks at the same heights, and a client that remembers a hash can tell.
    const label = `${height}/${this.fork}/${parent?.indexHash ?? ''}/${time}/${txIds.join(',')}`;
    const block: BlockRecord = {
      height,
      hash: `0x${derivedHex(this.seed, `block/${label}`)}`,
      indexHash: `0x${derivedHex(this.seed, `index/${label}`)}`,
      parentHash: parent?.hash ?? `0x${'0'.repeat(64)}`,
      parentIndexHash: parent?.indexHash ?? `0x${'0'.repeat(64)}`,
      burnHeight,
      burnHash: `0x${derivedHex(this.seed, `burn/${burnHeight}/${this.fork}`)}`,
      time,
      txIds,
      canonical: true,
    };
    this.ledger.unlockUpTo(burnHeight);
    const entries = included.map((signed, txIndex) => {
      const entry = this.txs.get(signed.txId);
      if (!entry) throw new Error(`mined an unknown transaction ${signed.txId}`);
      entry.state = { kind: 'confirmed', block, txIndex, outcome: this.ledger.apply(signed, { height, burnHeight }) };
      this.mempool.delete(signed.txId);
      return entry;
    });
    this.canonical.push(block);
    for (const entry of entries) this.index(entry);
    this.snapshots.set(height, this.ledger.clone());
    this.snapshots.delete(height - KEPT_SNAPSHOTS);
    if (height > 1) this.emit({ type: 'block', block, txs: entries });
    return block;
  }

  private index(entry: TxEntry): void {
    for (const principal of principalsOf(entry)) {
      let list = this.byPrincipal.get(principal);
      if (!list) this.byPrincipal.set(principal, (list = []));
      list.push(entry);
    }
  }

  private rebuildPrincipalIndex(): void {
    this.byPrincipal.clear();
    for (const block of this.canonical) for (const txId of block.txIds) this.index(this.txs.get(txId)!);
  }
}

/**
 * Every principal a transaction touches, the sender first (the order the address topics fire in): the
 * transaction's own fields (sender, sponsor, STX recipient, called contract) and, once mined, its asset events. A failed
 * token transfer has no events, so its would-be recipient never sees it — as on the real API.
 */
export function principalsOf(entry: TxEntry): string[] {
  const { sender, intent, contractCall, sponsor } = entry.signed;
  const found = [sender];
  if (sponsor) found.push(sponsor.address);
  if (intent.kind === 'stx') found.push(intent.recipient);
  if (contractCall) found.push(contractCall.contractId);
  if (entry.state.kind === 'confirmed') {
    for (const event of entry.state.outcome.events) {
      if (event.type === 'stx_lock') found.push(event.address);
      else for (const party of [event.sender, event.recipient]) if (party) found.push(party);
    }
  }
  return [...new Set(found)];
}
