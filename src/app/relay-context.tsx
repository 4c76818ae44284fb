import type { RelaySettings } from '../store/relay-settings-store.ts';
import { useLaterStores } from './AppProviders.tsx';
import type { RelayLink } from './relay-link.ts';
import type { RelayLinkState } from './relay-link-types.ts';
import { useStore } from './use-store.ts';

/** The relay's settings and link, or null where the app runs without them. */
export function useRelay(): { settings: RelaySettings; state: RelayLinkState; link: RelayLink } | null {
  const { relay } = useLaterStores();
  const settings = useStore(relay?.store);
  const state = useStore(relay?.link);
  if (!relay || !settings || !state) return null;
  return { settings, state, link: relay.link };
}
