import { RelayClient, RelayError } from '../chain/page/relay-client.ts';
import { createStore } from '../domain/create-store.ts';
import {
  deviceRegistration,
  readSubscription,
  relayWatches,
  vapidKeyBytes,
  type DeviceRegistration,
} from '../domain/relay/relay-device.ts';
import { isNewLog } from '../domain/relay/relay-cursor.ts';
import { checkRelayUrl } from '../domain/relay/relay-url.ts';
import { pushSupport, type PushSupport } from './pwa/platform.ts';
import { monitorCommands } from './monitor-commands.ts';
import { catchUpFromRelay } from './relay-catch-up.ts';
import { ListNotRead, listNotRead, NOT_ALLOWED, NotAllowed, pushRefused } from './relay-link-errors.ts';
import type { RelayLinkDeps, RelayLinkState } from './relay-link-types.ts';
import { onRelayWorthTrying } from './relay-wake.ts';
import { TimedOut, withTimeout } from './with-timeout.ts';
import { jittered } from '../domain/backoff.ts';
import { errorMessage } from '../domain/error-message.ts';

/**
 * The waits before a copy the relay did not take is sent again, after the first failure in a row, the second, ...;
 * each jittered to between half and all of it: every device of a relay that was down comes back when it does.
 */
const RETRY_MS = [2_000, 5_000, 15_000, 60_000];
const SUBSCRIBE_TIMEOUT_MS = 20_000;

/** How often an open app checks in with its relay (a catch-up), so that a relay never takes it for gone. */
export const RELAY_CHECK_IN_MS = 24 * 60 * 60 * 1000;

/**
 * This device's registration at the relay: turned on after a click (permission, push subscription, PUT), kept in
 * step with the watch list and each address's rules (debounced, retried), turned off (DELETE, unsubscribe).
 */
export class RelayLink {
  private readonly state = createStore<RelayLinkState>({
    busy: null,
    error: null,
    syncedAt: null,
    unwatched: [],
    retry: false,
  });
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** A failed copy waits for its next try: a wake signal sends it at once. */
  private retrying = false;
  private failures = 0;
  private sent = '';
  private stops: (() => void)[] = [];
  private stopSettings: (() => void) | null = null;

  constructor(private readonly deps: RelayLinkDeps) {}

  readonly get = this.state.get;
  readonly subscribe = this.state.subscribe;
  readonly support = (): PushSupport => (this.deps.support ?? pushSupport)();

  /**
   * On app start: when on, catch up once from the relay's feed and follow the watch list from now on; turned on in
   * another tab later, followed from then (this tab leads the relay link).
   */
  async start(): Promise<void> {
    this.stopSettings?.();
    this.stopSettings = this.deps.store.subscribe(() => {
      if (this.deps.store.get().enabled && this.stops.length === 0 && this.get().busy === null) {
        this.follow();
        this.schedule(0);
      }
    });
    if (!this.deps.store.get().enabled) return;
    this.follow();
    this.schedule(0);
    await this.catchUp();
  }

  async turnOn(urlText: string): Promise<boolean> {
    const url = checkRelayUrl(urlText);
    if (!url.ok) return this.fail(url.error);
    const list = this.deps.watchlist.getState();
    if (list.status !== 'ready')
      return this.fail(
        listNotRead(list.status).message || 'Your watch list is still being read; try again in a moment.',
      );
    this.set({ busy: 'on', error: null, retry: false });
    try {
      const permission = await this.deps.requestPermission();
      if (permission !== 'granted')
        return this.fail(
          permission === 'unsupported'
            ? 'This browser cannot show notifications, so alerts cannot reach it when the app is closed.'
            : NOT_ALLOWED,
        );
      const client = this.client(url.value);
      const key = vapidKeyBytes(await client.vapidPublicKey());
      if (!key.ok) return this.fail(`The relay’s answer is not usable: ${key.error}.`);
      const subscription = await this.pushSubscribe(key.value);
      const registration = this.registration(subscription);
      const identity = await this.deps.store.identity();
      const { cursor, unwatched } = await client.putDevice(identity, registration);
      this.sent = JSON.stringify(registration);
      await this.deps.store.enable(url.value, cursor);
      this.follow();
      this.set({ busy: null, error: null, syncedAt: this.now(), unwatched });
      return true;
    } catch (error) {
      // Bounded too: the explanation must not wait on a push service that does not answer.
      await withTimeout(this.deps.push.unsubscribe(), 5_000, 'unsubscribe').catch(() => false);
      // Nothing else tries again: a relay that is down or restarting is said so, with the way to try again.
      const relayAway =
        error instanceof RelayError && (error.status === null || error.status === 429 || error.status >= 500);
      this.fail(relayAway ? `Nothing was turned on: ${errorMessage(error)}` : errorMessage(error));
      if (error instanceof TimedOut || relayAway) this.set({ retry: true });
      return false;
    }
  }

  /**
   * The browser's push subscription, or a plain explanation when its push service does not answer: a browser that
   * cannot reach it (a network that blocks it, a de-Googled phone) leaves `subscribe` pending for good.
   */
  private pushSubscribe(key: Uint8Array<ArrayBuffer>): Promise<unknown> {
    const ms = this.deps.subscribeTimeoutMs ?? SUBSCRIBE_TIMEOUT_MS;
    return withTimeout(
      this.deps.push.subscribe(key).catch((error: unknown) => {
        throw new Error(pushRefused(error));
      }),
      ms,
      `This browser’s push service did not answer within ${ms / 1000} s, so it cannot deliver alerts while the app is closed yet. It may be blocked on this network or turned off in this browser; check the connection and try again.`,
    );
  }

  /** Off: the relay forgets the device (a failure is shown, and the push subscription ends all the same). */
  async turnOff(): Promise<void> {
    const { url, identity } = this.deps.store.get();
    this.unfollow();
    this.set({ busy: 'off', error: null });
    let error: string | null = null;
    if (url && identity) {
      try {
        await this.client(url).deleteDevice(identity);
      } catch (failure) {
        error = `${errorMessage(failure)} The relay may keep this device until its push subscription expires.`;
      }
    }
    await this.deps.push.unsubscribe().catch(() => false);
    await this.deps.store.disable();
    this.sent = '';
    this.set({ busy: null, error, syncedAt: null, unwatched: [] });
  }

  stop(): void {
    this.stopSettings?.();
    this.stopSettings = null;
    this.unfollow();
  }

  private follow(): void {
    if (this.stops.length > 0) return;
    const changed = () => this.schedule(this.deps.debounceMs ?? 1000);
    const worthTrying = () => {
      if (this.retrying) this.schedule(0);
    };
    // A relay forgets a device that has not checked in for a month (30 days by default): an app left open for
    // weeks checks in once a day with a catch-up, as it does on every start.
    const checkIn = setInterval(() => void this.catchUp(), RELAY_CHECK_IN_MS);
    this.stops = [
      this.deps.watchlist.subscribe(changed),
      this.deps.alertSettings.subscribe(changed),
      (this.deps.worthTrying ?? onRelayWorthTrying)(worthTrying),
      () => clearInterval(checkIn),
    ];
  }

  private unfollow(): void {
    this.stops.forEach((stop) => stop());
    this.stops = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delay: number): void {
    this.retrying = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sync();
    }, delay);
  }

  /** Sends the watch list if it changed since the relay last accepted it; retries with backoff on failure. */
  private async sync(): Promise<void> {
    const { enabled, url, identity } = this.deps.store.get();
    if (!enabled || !url || !identity) return;
    // A change made while a copy is on its way is sent after it, never dropped.
    if (this.get().busy) return this.schedule(this.deps.debounceMs ?? 1000);
    this.set({ busy: 'sync' });
    try {
      const registration = this.registration(await this.subscription(url));
      const body = JSON.stringify(registration);
      if (body === this.sent) return this.set({ busy: null });
      const before = this.deps.store.get().cursor;
      const { cursor, unwatched } = await this.client(url).putDevice(identity, registration);
      this.sent = body;
      this.failures = 0;
      if (isNewLog(cursor, before)) await this.deps.store.setCursor(cursor);
      this.set({ busy: null, error: null, syncedAt: this.now(), unwatched });
    } catch (error) {
      if (error instanceof NotAllowed) {
        this.fail(error.message);
        return;
      }
      if (error instanceof ListNotRead) {
        this.set({ busy: null, error: error.message || null });
        return;
      }
      const most = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)]!;
      // Whole seconds, as said: the words name the wait it is.
      const delay = Math.max(1, Math.round(jittered(most, this.deps.random) / 1000)) * 1000;
      this.failures += 1;
      this.set({
        busy: null,
        error: `${errorMessage(error)} Trying again in ${delay / 1000} s, or as soon as the app is back in view or online.`,
      });
      if (this.stops.length > 0) {
        this.schedule(delay);
        this.retrying = true;
      }
    }
  }

  /**
   * This browser's push subscription, renewed with the relay's key if the browser ended it (it expired, or the push
   * service changed it while the app was closed): the relay then gets the new one, never a dead one.
   */
  private async subscription(url: string): Promise<unknown> {
    const current = await this.deps.push.current();
    if (current !== null) return current;
    // Asking is for a click (Settings); here it is only read. Denied since: said once, not retried.
    const permission = this.deps.permission?.() ?? ('Notification' in globalThis ? Notification.permission : 'denied');
    if (permission !== 'granted') throw new NotAllowed(NOT_ALLOWED);
    const key = vapidKeyBytes(await this.client(url).vapidPublicKey());
    if (!key.ok) throw new RelayError(`The relay’s answer is not usable: ${key.error}.`);
    return this.pushSubscribe(key.value);
  }

  private async catchUp(): Promise<void> {
    const { url, identity, cursor } = this.deps.store.get();
    if (!url || !identity) return;
    try {
      const next = await catchUpFromRelay(
        this.client(url),
        identity,
        this.deps.inbox,
        cursor,
        this.deps.now,
        this.deps.words,
      );
      for (const { principal } of next.missed) (this.deps.reconcile ?? monitorCommands.reconcile)(principal);
      if (next.cursor !== null && next.cursor !== cursor) await this.deps.store.setCursor(next.cursor);
    } catch (error) {
      this.set({ error: `Could not catch up on the relay’s alerts: ${errorMessage(error)}` });
    }
  }

  private registration(subscriptionJson: unknown): DeviceRegistration {
    const subscription = readSubscription(subscriptionJson);
    if (!subscription.ok)
      throw new RelayError(`This browser’s push subscription is not usable: ${subscription.error}.`);
    const state = this.deps.watchlist.getState();
    if (state.status !== 'ready') throw listNotRead(state.status);
    const watches = relayWatches(state.entries, (network, principal) =>
      this.deps.alertSettings.rulesFor(network, principal),
    );
    if (!watches.ok) throw new RelayError(watches.error);
    const registration = deviceRegistration(subscription.value, watches.value);
    if (!registration.ok)
      throw new RelayError(`This list cannot be sent to the relay as it is (${registration.error}).`);
    return registration.value;
  }

  private client(url: string): RelayClient {
    return this.deps.client?.(url) ?? new RelayClient(url);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private fail(error: string): false {
    this.set({ busy: null, error });
    return false;
  }

  private set(next: Partial<RelayLinkState>): void {
    this.state.update((state) => ({ ...state, ...next }));
  }
}
