import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { RelaySettings, RelaySettingsStore } from '../store/relay-settings-store.ts';
import type { RelayLink, RelayLinkState } from './relay-link.ts';

interface RelayStores {
  readonly store: RelaySettingsStore;
  readonly link: RelayLink;
}

const RelayContext = createContext<RelayStores | null>(null);

export function RelayProvider({ relay, children }: { relay?: RelayStores | undefined; children: ReactNode }) {
  return <RelayContext value={relay ?? null}>{children}</RelayContext>;
}

/** The relay's settings and link, or null where the app runs without them. */
export function useRelay(): { settings: RelaySettings; state: RelayLinkState; link: RelayLink } | null {
  const relay = useContext(RelayContext);
  const settings = useSyncExternalStore(relay?.store.subscribe ?? noSubscription, relay?.store.get ?? noValue);
  const state = useSyncExternalStore(relay?.link.subscribe ?? noSubscription, relay?.link.get ?? noValue);
  if (!relay || !settings || !state) return null;
  return { settings, state, link: relay.link };
}

const noSubscription = () => () => undefined;
const noValue = () => null;
