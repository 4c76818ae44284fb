import { StacksApiSocketClient, type Topic } from '@stacks/blockchain-api-client';
import { sent } from './outbound.ts';

export type FeedState = 'connecting' | 'live' | 'reconnecting' | 'offline';

export interface FeedHandlers {
  onState(state: FeedState): void;
  /**
   * Every connect and reconnect, once the address topics are subscribed: nothing is replayed, so the caller
   * reconciles over REST now, and every later event reaches it.
   */
  onConnected(): void;
  onBlock(payload: unknown): void;
  onMempool(payload: unknown): void;
  onAddressTransaction(principal: string, payload: unknown): void;
  onAddressBalance(principal: string, payload: unknown): void;
  /** A followed transaction changed state (mined, or dropped from the mempool). */
  onTransaction(txId: string, payload: unknown): void;
  /** A principal the node would not subscribe (no ack): it gets no live updates. */
  onRefused(principal: string): void;
}

type Socket = StacksApiSocketClient['socket'];

const CHUNK = 100;
const DEFAULT_ACK_TIMEOUT_MS = 5000;
const ADDRESS_TOPICS = ['address-transaction:', 'address-stx-balance:'] as const;
const TRANSACTION_TOPIC = 'transaction:';
/** Topics the handshake URL names (every connection attempt sends them). */
const HANDSHAKE_TOPICS = ['block', 'mempool'] as const;

/**
 * One Socket.IO connection to a node. Only `block` and `mempool` travel in the handshake; address topics are
 * subscribed after connecting, in chunks, so a thousand addresses never overflow the handshake URL.
 */
export class SocketIoFeed {
  private readonly client: StacksApiSocketClient;
  private readonly socket: Socket;
  private principals: string[] = [];
  private subscribed = new Set<string>();
  private transactions: string[] = [];
  private subscribedTransactions = new Set<string>();
  private generation = 0;

  private readonly ackTimeoutMs: number;
  /** The reconnect delays the feed was made with, when the node is not known to be unreachable. */
  private readonly ownPace: { min: number; max: number };

  constructor(
    private readonly url: string,
    private readonly handlers: FeedHandlers,
    socketOptions: Record<string, unknown> = {},
    options: { ackTimeoutMs?: number } = {},
  ) {
    this.ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
    this.client = StacksApiSocketClient.connect({
      url,
      subscriptions: [...HANDSHAKE_TOPICS],
      socketOpts: { reconnectionDelay: 1000, reconnectionDelayMax: 30_000, randomizationFactor: 0.5, ...socketOptions },
    });
    this.socket = this.client.socket;
    this.ownPace = { min: this.socket.io.reconnectionDelay(), max: this.socket.io.reconnectionDelayMax() };
    // The handshake names its topics: tried at each attempt, told to the host once it answers (a name that does not
    // resolve, or a refused connection, tells it nothing).
    this.tell(HANDSHAKE_TOPICS, false);
    handlers.onState('connecting');
    this.socket.on('connect', () => {
      this.tell(HANDSHAKE_TOPICS);
      this.subscribed = new Set();
      this.subscribedTransactions = new Set();
      this.generation += 1;
      handlers.onState('live');
      void this.subscribeMissing().then((current) => {
        if (!current) return;
        void this.subscribeTransactions();
        handlers.onConnected();
      });
    });
    this.socket.on('disconnect', () => handlers.onState(this.socket.active ? 'reconnecting' : 'offline'));
    this.socket.io.on('reconnect_attempt', () => {
      this.tell(HANDSHAKE_TOPICS, false);
      handlers.onState('reconnecting');
    });
    this.socket.on('block', (block: unknown) => handlers.onBlock(block));
    this.socket.on('mempool', (tx: unknown) => handlers.onMempool(tx));
    this.socket.onAny((event: string, first: unknown, payload: unknown) => {
      // `transaction:<id>` carries the transaction; the address topics carry the principal, then their payload.
      if (event.startsWith(TRANSACTION_TOPIC)) handlers.onTransaction(event.slice(TRANSACTION_TOPIC.length), first);
      const principal = first;
      if (typeof principal !== 'string') return;
      if (event.startsWith('address-transaction:')) handlers.onAddressTransaction(principal, payload);
      else if (event.startsWith('address-stx-balance:')) handlers.onAddressBalance(principal, payload);
    });
  }

  /**
   * The principals to follow; removed ones are unsubscribed, new ones subscribed. Resolves once the new ones
   * are subscribed (at once when offline: the next connect subscribes them before reconciling).
   */
  setPrincipals(principals: readonly string[]): Promise<void> {
    const wanted = new Set(principals);
    const gone = this.principals.filter((principal) => !wanted.has(principal));
    this.principals = [...wanted];
    if (gone.length > 0 && this.socket.connected) {
      this.unsubscribe(gone.flatMap((principal) => ADDRESS_TOPICS.map((prefix) => `${prefix}${principal}` as const)));
      gone.forEach((principal) => this.subscribed.delete(principal));
    }
    return this.subscribeMissing().then(() => undefined);
  }

  /**
   * The transactions to follow (the watched addresses' pending ones): the node says on their topic when one is
   * dropped from the mempool, which no address topic does.
   */
  setTransactions(txIds: readonly string[]): Promise<readonly string[]> {
    const wanted = new Set(txIds);
    const gone = this.transactions.filter((txId) => !wanted.has(txId));
    this.transactions = [...wanted];
    if (gone.length > 0 && this.socket.connected) {
      this.unsubscribe(gone.map((txId) => `${TRANSACTION_TOPIC}${txId}` as const));
      gone.forEach((txId) => this.subscribedTransactions.delete(txId));
    }
    return this.subscribeTransactions();
  }

  close(): void {
    this.socket.disconnect();
  }

  /**
   * Resolves once the node has answered a message sent now, so after every event it sent before it (one connection,
   * in order), or once the connection drops (it sends nothing more). An empty subscription names nothing to the node,
   * which acknowledges it as any other.
   */
  caughtUp(): Promise<void> {
    if (!this.socket.connected) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.socket.off('disconnect', done);
        resolve();
      };
      const timer = setTimeout(done, this.ackTimeoutMs);
      this.socket.on('disconnect', done);
      this.socket.emit('subscribe', [], done);
    });
  }

  /** Reconnects at most about every `delayMs` (with Socket.IO's own jitter), or at the feed's own pace again. */
  pace(delayMs: number | null): void {
    const manager = this.socket.io;
    manager.reconnectionDelay(delayMs ?? this.ownPace.min);
    manager.reconnectionDelayMax(delayMs === null ? this.ownPace.max : Math.max(delayMs, this.ownPace.min));
  }

  /**
   * The only places topics are named to the node (besides the handshake's): each message is recorded as sent, as it
   * is sent, for the privacy record.
   */
  private subscribe(topics: Topic[], ack: () => void): void {
    this.tell(topics);
    this.socket.emit('subscribe', topics, ack);
  }

  private unsubscribe(topics: Topic[]): void {
    this.tell(topics);
    this.socket.emit('unsubscribe', ...topics);
  }

  private tell(topics: readonly string[], answered = true): void {
    sent({ via: 'socket', url: this.url, topics, purpose: 'live', ...(answered ? {} : { answered }) });
  }

  /**
   * Subscribes the transactions not yet subscribed on this connection (the next connect retries what is lost);
   * resolves to those newly subscribed, once acknowledged.
   */
  private async subscribeTransactions(): Promise<readonly string[]> {
    if (!this.socket.connected) return [];
    const missing = this.transactions.filter((txId) => !this.subscribedTransactions.has(txId));
    missing.forEach((txId) => this.subscribedTransactions.add(txId));
    for (let start = 0; start < missing.length; start += CHUNK) {
      const topics = missing.slice(start, start + CHUNK).map((txId) => `${TRANSACTION_TOPIC}${txId}` as const);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.ackTimeoutMs);
        this.subscribe(topics, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return missing;
  }

  /** Resolves true when every principal is subscribed on the current connection, false if it dropped meanwhile. */
  private async subscribeMissing(): Promise<boolean> {
    if (!this.socket.connected) return false;
    const missing = this.principals.filter((principal) => !this.subscribed.has(principal));
    missing.forEach((principal) => this.subscribed.add(principal));
    const generation = this.generation;
    for (let start = 0; start < missing.length; start += CHUNK)
      await this.subscribeChunk(missing.slice(start, start + CHUNK), generation);
    return generation === this.generation && this.socket.connected;
  }

  /**
   * Subscribes a chunk. Without an ack (an invalid topic in it, which the node never answers), subscribes its
   * principals one by one, in parallel, so that the culprit is found in one more wait and the others still follow.
   */
  private async subscribeChunk(principals: string[], generation: number): Promise<void> {
    if (generation !== this.generation || principals.length === 0) return;
    const topics = principals.flatMap((principal) => ADDRESS_TOPICS.map((prefix) => `${prefix}${principal}` as const));
    const acked = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.ackTimeoutMs);
      this.subscribe(topics, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (acked || generation !== this.generation) return;
    if (principals.length === 1) {
      this.handlers.onRefused(principals[0]!);
      return;
    }
    await Promise.all(principals.map((principal) => this.subscribeChunk([principal], generation)));
  }
}
