import { parsePrincipal } from '../../src/domain/address/address.ts';
import { principalsOf, type ChainEvent, type DevnetChain, type TxEntry } from './chain.ts';
import { txJson } from './routes-legacy.ts';
import { block, mempoolTransaction, stxBalance, withTransfers } from './serialize-v1.ts';

/** One realtime connection, whatever carries it (a Socket.IO server socket, an MSW WebSocket). */
export interface RealtimeClient {
  emit(event: string, ...args: unknown[]): void;
}

const GLOBAL_TOPICS = new Set(['block', 'mempool', 'microblock', 'nft-event']);
const TX_ID = /^(0x)?[a-fA-F0-9]{64}$/;
const isPrincipal = (value: string) => parsePrincipal(value).ok && value.trim() === value;

/** The API's topic rules: lenient about case (a lowercase address is accepted, and then never fires). */
export function isValidTopic(topic: unknown): boolean {
  if (typeof topic !== 'string') return false;
  if (GLOBAL_TOPICS.has(topic)) return true;
  const [kind, ...rest] = topic.split(':');
  const value = rest.join(':');
  switch (kind) {
    case 'address-transaction':
    case 'address-stx-balance':
      return isPrincipal(value);
    case 'transaction':
      return TX_ID.test(value);
    case 'nft-asset-event': {
      const [asset = '', token] = value.split('+');
      const [contract = '', name] = asset.split('::');
      return Boolean(token && name && isPrincipal(contract));
    }
    case 'nft-collection-event': {
      const [contract = '', name] = value.split('::');
      return Boolean(name && isPrincipal(contract));
    }
    default:
      return false;
  }
}

export const invalidTopics = (topics: readonly unknown[]): string[] =>
  topics.filter((topic) => !isValidTopic(topic)).map(String);

/** Reads `subscriptions` from a handshake query: comma-separated, possibly repeated. */
export const topicsFromQuery = (values: readonly string[]): string[] =>
  values.flatMap((value) => value.split(',')).filter(Boolean);

/**
 * Routes chain events to subscribed clients with the real API's rules: address topics only when a block
 * confirms a transaction; `mempool` again when a pending transaction is mined; nothing replayed to late comers.
 */
export class RealtimeHub {
  private readonly subscribers = new Map<string, Set<RealtimeClient>>();
  private readonly topicsOf = new Map<RealtimeClient, Set<string>>();
  private readonly unsubscribeChain: () => void;

  constructor(private readonly chain: DevnetChain) {
    this.unsubscribeChain = chain.subscribe((event) => this.dispatch(event));
  }

  get clientCount(): number {
    return this.topicsOf.size;
  }

  subscribe(client: RealtimeClient, topics: readonly string[]): void {
    let own = this.topicsOf.get(client);
    if (!own) this.topicsOf.set(client, (own = new Set()));
    for (const topic of topics) {
      own.add(topic);
      let set = this.subscribers.get(topic);
      if (!set) this.subscribers.set(topic, (set = new Set()));
      set.add(client);
    }
  }

  unsubscribe(client: RealtimeClient, topics: readonly string[]): void {
    for (const topic of topics) {
      this.topicsOf.get(client)?.delete(topic);
      const set = this.subscribers.get(topic);
      set?.delete(client);
      if (set?.size === 0) this.subscribers.delete(topic);
    }
  }

  remove(client: RealtimeClient): void {
    this.unsubscribe(client, [...(this.topicsOf.get(client) ?? [])]);
    this.topicsOf.delete(client);
  }

  close(): void {
    this.unsubscribeChain();
  }

  /** Builds the payload only when someone listens: with many addresses and a busy chain, that matters. */
  private send(topic: string, event: string, payload: () => unknown[]): void {
    const clients = this.subscribers.get(topic);
    if (!clients || clients.size === 0) return;
    const args = payload();
    for (const client of clients) client.emit(event, ...args);
  }

  private dispatch(event: ChainEvent): void {
    switch (event.type) {
      case 'mempool':
        this.send('mempool', 'mempool', () => [mempoolTransaction(event.tx)]);
        this.sendTx(event.tx);
        return;
      case 'dropped':
        this.sendTx(event.tx);
        return;
      case 'reorg':
        for (const tx of event.txs) this.sendTx(tx);
        return;
      case 'block':
        this.send('block', 'block', () => [block(event.block)]);
        for (const tx of event.txs) this.sendConfirmed(tx);
        return;
    }
  }

  private sendTx(entry: TxEntry): void {
    const topic = `transaction:${entry.signed.txId}`;
    this.send(topic, topic, () => [txJson(this.chain, entry, { withEvents: false })]);
  }

  private sendConfirmed(entry: TxEntry): void {
    this.send('mempool', 'mempool', () => [mempoolTransaction(entry)]);
    this.sendTx(entry);
    const parentTime =
      entry.state.kind === 'confirmed' ? (this.chain.block(entry.state.block.height - 1)?.time ?? 0) : 0;
    for (const principal of principalsOf(entry)) {
      const txTopic = `address-transaction:${principal}`;
      this.send(txTopic, txTopic, () => [principal, withTransfers(entry, principal, parentTime)]);
      const balanceTopic = `address-stx-balance:${principal}`;
      this.send(balanceTopic, balanceTopic, () => [principal, stxBalance(this.chain.state, principal)]);
    }
  }
}
