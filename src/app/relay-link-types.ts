/** What a relay link is given (its stores, the push port, the clock) and what it shows (busy, error, synced). */
import type { RelayClient } from '../chain/page/relay-client.ts';
import type { UnwatchedAddress } from '../domain/relay/relay-device.ts';
import type { AlertSettingsStore } from '../store/alert-settings-store.ts';
import type { Inbox } from '../store/inbox.ts';
import type { RelaySettingsStore } from '../store/relay-settings-store.ts';
import type { WatchlistController } from '../store/watchlist-state.ts';
import type { PushSupport } from './pwa/platform.ts';
import type { PushPort } from './pwa/sw-bridge.ts';
import type { RelayWords } from './relay-words.ts';

export interface RelayLinkState {
  /** Turning on or off, or sending the watch list. */
  readonly busy: 'on' | 'off' | 'sync' | null;
  readonly error: string | null;
  /** Epoch ms of the relay's last accepted copy of the watch list. */
  readonly syncedAt: number | null;
  /** Addresses of the list the relay said it does not watch, with why: the open app alone alerts them. */
  readonly unwatched: readonly UnwatchedAddress[];
  /**
   * Turning on failed in a way a second try may mend (the push service or the relay did not answer, the relay
   * failed): nothing was turned on, and Try again is offered.
   */
  readonly retry: boolean;
}

export interface RelayLinkDeps {
  readonly store: RelaySettingsStore;
  readonly watchlist: WatchlistController;
  readonly alertSettings: AlertSettingsStore;
  readonly inbox: Inbox;
  readonly push: PushPort;
  readonly requestPermission: () => Promise<NotificationPermission | 'unsupported'>;
  /** The notification permission now, without asking (the browser's by default). */
  readonly permission?: () => NotificationPermission | 'unsupported';
  /** Whether push can reach this app here (iOS needs the Home Screen); the platform's answer by default. */
  readonly support?: () => PushSupport;
  readonly client?: (url: string) => RelayClient;
  readonly debounceMs?: number;
  /** A relay alert in this device's words (its labels); the relay's own words without it. */
  readonly words?: RelayWords;
  /** How long the browser's push service has to give a subscription (20 s by default). */
  readonly subscribeTimeoutMs?: number;
  readonly now?: () => number;
  /** Jitters the waits before a failed copy is sent again (Math.random by default). */
  readonly random?: () => number;
  /** Reads an address over REST (the engine's command, wherever it runs); for what the relay no longer kept. */
  readonly reconcile?: (principal: string) => void;
  /** When a failed copy is tried again at once (the app in view or online, a push from the relay); see relay-wake.ts. */
  readonly worthTrying?: (listener: () => void) => () => void;
}
