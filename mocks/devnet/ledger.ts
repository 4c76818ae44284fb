import { applyPox5 } from './pox5-apply.ts';
import { isPox5Intent } from './pox5-intents.ts';
import { POX5_CONTRACT, SBTC } from './pox5.ts';
import { StakingBook } from './staking-book.ts';
import type { Intent, SignedTx } from './transactions.ts';

export interface StxAccount {
  balance: bigint;
  locked: bigint;
  lockTxId: string;
  lockHeight: number;
  burnLockHeight: number;
  burnUnlockHeight: number;
  /**
   * STX a bond position holds: pox-5 locks them as it locks a stake's (they cannot be spent), but the API's balances
   * never show them (its lock is read from stake, stake-update and unstake only, pg-write-store.ts in API v9.0.2), so
   * they stay out of `locked`.
   */
  bonded: bigint;
  bondUnlockHeight: number;
  totalSent: bigint;
  totalReceived: bigint;
  totalFeesSent: bigint;
}

export type AssetEvent =
  | { readonly type: 'stx_transfer'; readonly sender: string; readonly recipient: string; readonly amount: bigint }
  /** A token transfer; a mint has no sender, a burn no recipient. */
  | {
      readonly type: 'ft_transfer';
      readonly asset: string;
      readonly sender: string | null;
      readonly recipient: string | null;
      readonly amount: bigint;
    }
  | {
      readonly type: 'nft_transfer';
      readonly asset: string;
      readonly sender: string | null;
      readonly recipient: string;
      readonly id: bigint;
    }
  | { readonly type: 'stx_lock'; readonly address: string; readonly amount: bigint; readonly unlockBurnHeight: number };

export type TxStatus = 'success' | 'abort_by_response' | 'abort_by_post_condition' | 'problematic_skipped';

/** A contract's `print`, as the API lists it (`smart_contract_log`): how pox-5 tells what a call did. */
export interface ContractLog {
  readonly contract: string;
  readonly hex: string;
  readonly repr: string;
}

export interface Outcome {
  readonly status: TxStatus;
  readonly result: { readonly hex: string; readonly repr: string };
  readonly events: readonly AssetEvent[];
  readonly logs?: readonly ContractLog[];
}

export const OK_TRUE = { hex: '0x0703', repr: '(ok true)' } as const;
const errUint = (code: number) => ({
  hex: `0x0801${code.toString(16).padStart(32, '0')}`,
  repr: `(err u${code})`,
});

/** Burn blocks per stacking cycle on the devnet (short, so that unlocks happen during a demo). */
export const CYCLE_BURN_BLOCKS = 10;

/** Balances, tokens, NFTs and nonces. Cloned per block so that a re-org can roll back. */
export class Ledger {
  readonly stx = new Map<string, StxAccount>();
  readonly ft = new Map<string, Map<string, bigint>>();
  readonly nftOwners = new Map<string, string>();
  readonly nonces = new Map<string, number>();
  staking = new StakingBook();
  /** Transactions a miner will include but skip (Epoch 4.0's `problematic_skipped`): fee and nonce, no effect. */
  readonly skipped = new Set<string>();

  clone(): Ledger {
    const copy = new Ledger();
    copy.staking = this.staking.clone();
    for (const txId of this.skipped) copy.skipped.add(txId);
    for (const [principal, account] of this.stx) copy.stx.set(principal, { ...account });
    for (const [principal, tokens] of this.ft) copy.ft.set(principal, new Map(tokens));
    for (const [key, owner] of this.nftOwners) copy.nftOwners.set(key, owner);
    for (const [principal, nonce] of this.nonces) copy.nonces.set(principal, nonce);
    return copy;
  }

  account(principal: string): StxAccount {
    let account = this.stx.get(principal);
    if (!account) {
      account = {
        balance: 0n,
        locked: 0n,
        lockTxId: '',
        lockHeight: 0,
        burnLockHeight: 0,
        burnUnlockHeight: 0,
        bonded: 0n,
        bondUnlockHeight: 0,
        totalSent: 0n,
        totalReceived: 0n,
        totalFeesSent: 0n,
      };
      this.stx.set(principal, account);
    }
    return account;
  }

  available(principal: string): bigint {
    const account = this.stx.get(principal);
    return account ? account.balance - account.locked - account.bonded : 0n;
  }

  nonce(principal: string): number {
    return this.nonces.get(principal) ?? 0;
  }

  ftBalance(principal: string, asset: string): bigint {
    return this.ft.get(principal)?.get(asset) ?? 0n;
  }

  nftKey = (asset: string, id: bigint): string => `${asset}#${id}`;

  credit(principal: string, amount: bigint): void {
    const account = this.account(principal);
    account.balance += amount;
    account.totalReceived += amount;
  }

  moveStx(from: string, to: string, amount: bigint): void {
    const sender = this.account(from);
    sender.balance -= amount;
    sender.totalSent += amount;
    this.credit(to, amount);
  }

  moveFt(asset: string, from: string | null, to: string | null, amount: bigint): void {
    if (from) this.setFt(from, asset, this.ftBalance(from, asset) - amount);
    if (to) this.setFt(to, asset, this.ftBalance(to, asset) + amount);
  }

  private setFt(principal: string, asset: string, amount: bigint): void {
    let tokens = this.ft.get(principal);
    if (!tokens) this.ft.set(principal, (tokens = new Map()));
    if (amount === 0n) tokens.delete(asset);
    else tokens.set(asset, amount);
  }

  /** Unlocks every stacking lock and bond's STX that have reached their burn height; calculates the rewards of ended cycles. */
  unlockUpTo(burnHeight: number): void {
    for (const account of this.stx.values()) {
      if (account.locked > 0n && account.burnUnlockHeight <= burnHeight) {
        account.locked = 0n;
        account.lockTxId = '';
        account.lockHeight = 0;
        account.burnLockHeight = 0;
        account.burnUnlockHeight = 0;
      }
      if (account.bonded > 0n && account.bondUnlockHeight <= burnHeight) {
        account.bonded = 0n;
        account.bondUnlockHeight = 0;
      }
    }
    const rewards = this.staking.reachBurnHeight(burnHeight);
    if (rewards > 0n) this.moveFt(SBTC.assetIdentifier, null, POX5_CONTRACT, rewards);
  }

  /**
   * Whether the fee's payer (the sponsor of a sponsored transaction, else the sender) can pay it and every nonce is
   * next in line: a transaction that cannot stays in the mempool.
   */
  canPayFee(tx: SignedTx): boolean {
    const payer = tx.sponsor?.address ?? tx.sender;
    const sponsorReady = tx.sponsor === null || this.nonce(tx.sponsor.address) === tx.sponsor.nonce;
    return this.available(payer) >= tx.fee && this.nonce(tx.sender) === tx.nonce && sponsorReady;
  }

  /** Applies a transaction: the fee and nonces always; the intent only if it succeeds. */
  apply(tx: SignedTx, at: { height: number; burnHeight: number }): Outcome {
    const payer = this.account(tx.sponsor?.address ?? tx.sender);
    payer.balance -= tx.fee;
    payer.totalFeesSent += tx.fee;
    this.nonces.set(tx.sender, tx.nonce + 1);
    if (tx.sponsor) this.nonces.set(tx.sponsor.address, tx.sponsor.nonce + 1);
    if (this.skipped.has(tx.txId))
      return { status: 'problematic_skipped', result: { hex: '0x09', repr: 'none' }, events: [] };
    return this.applyIntent(tx, tx.intent, at);
  }

  private applyIntent(tx: SignedTx, intent: Intent, at: { height: number; burnHeight: number }): Outcome {
    const success = (events: AssetEvent[]): Outcome => ({ status: 'success', result: OK_TRUE, events });
    const refused = (code: number): Outcome => ({ status: 'abort_by_response', result: errUint(code), events: [] });
    if (isPox5Intent(intent)) return applyPox5(this, tx, intent, at);
    switch (intent.kind) {
      case 'stx':
        if (this.available(tx.sender) < intent.amount) return refused(1);
        this.moveStx(tx.sender, intent.recipient, intent.amount);
        return success([
          { type: 'stx_transfer', sender: tx.sender, recipient: intent.recipient, amount: intent.amount },
        ]);
      case 'ft': {
        const asset = intent.token.assetIdentifier;
        if (this.ftBalance(tx.sender, asset) < intent.amount) return refused(1);
        if (intent.breakPostCondition) return { status: 'abort_by_post_condition', result: OK_TRUE, events: [] };
        this.moveFt(asset, tx.sender, intent.recipient, intent.amount);
        return success([
          { type: 'ft_transfer', asset, sender: tx.sender, recipient: intent.recipient, amount: intent.amount },
        ]);
      }
      case 'nft': {
        const asset = intent.collection.assetIdentifier;
        const key = this.nftKey(asset, intent.id);
        if (this.nftOwners.get(key) !== tx.sender) return refused(1);
        this.nftOwners.set(key, intent.recipient);
        return success([
          { type: 'nft_transfer', asset, sender: tx.sender, recipient: intent.recipient, id: intent.id },
        ]);
      }
      case 'ft-mint': {
        const asset = intent.token.assetIdentifier;
        this.moveFt(asset, null, intent.recipient, intent.amount);
        return success([
          { type: 'ft_transfer', asset, sender: null, recipient: intent.recipient, amount: intent.amount },
        ]);
      }
      case 'ft-burn': {
        const asset = intent.token.assetIdentifier;
        if (this.ftBalance(tx.sender, asset) < intent.amount) return refused(1);
        this.moveFt(asset, tx.sender, null, intent.amount);
        return success([{ type: 'ft_transfer', asset, sender: tx.sender, recipient: null, amount: intent.amount }]);
      }
      case 'nft-mint': {
        const asset = intent.collection.assetIdentifier;
        const key = this.nftKey(asset, intent.id);
        if (this.nftOwners.has(key)) return refused(2);
        this.nftOwners.set(key, intent.recipient);
        return success([{ type: 'nft_transfer', asset, sender: null, recipient: intent.recipient, id: intent.id }]);
      }
      case 'send-many': {
        const total = intent.recipients.reduce((sum, { amount }) => sum + amount, 0n);
        if (this.available(tx.sender) < total) return refused(1);
        for (const { to, amount } of intent.recipients) this.moveStx(tx.sender, to, amount);
        return success(
          intent.recipients.map(({ to, amount }) => ({
            type: 'stx_transfer',
            sender: tx.sender,
            recipient: to,
            amount,
          })),
        );
      }
      case 'vault-deposit':
        if (this.available(tx.sender) < intent.amount) return refused(1);
        this.moveStx(tx.sender, intent.vault, intent.amount);
        return success([{ type: 'stx_transfer', sender: tx.sender, recipient: intent.vault, amount: intent.amount }]);
      case 'stack-extend': {
        const account = this.account(tx.sender);
        if (account.locked === 0n) return refused(26);
        account.burnUnlockHeight += intent.cycles * CYCLE_BURN_BLOCKS;
        return success([
          { type: 'stx_lock', address: tx.sender, amount: account.locked, unlockBurnHeight: account.burnUnlockHeight },
        ]);
      }
      case 'vault-withdraw':
        if (this.available(intent.vault) < intent.amount) return refused(1);
        this.moveStx(intent.vault, tx.sender, intent.amount);
        return success([{ type: 'stx_transfer', sender: intent.vault, recipient: tx.sender, amount: intent.amount }]);
      case 'stack': {
        if (this.account(tx.sender).locked > 0n) return refused(3);
        if (this.available(tx.sender) < intent.amount) return refused(1);
        const account = this.account(tx.sender);
        const unlockBurnHeight = at.burnHeight + intent.cycles * CYCLE_BURN_BLOCKS;
        Object.assign(account, {
          locked: intent.amount,
          lockTxId: tx.txId,
          lockHeight: at.height,
          burnLockHeight: at.burnHeight,
          burnUnlockHeight: unlockBurnHeight,
        });
        return success([{ type: 'stx_lock', address: tx.sender, amount: intent.amount, unlockBurnHeight }]);
      }
    }
  }
}
