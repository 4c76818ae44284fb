import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { WatchlistController, WatchlistState } from '../store/watchlist-state.ts';

const WatchlistContext = createContext<WatchlistController | null>(null);

export function WatchlistProvider({ controller, children }: { controller: WatchlistController; children: ReactNode }) {
  return <WatchlistContext value={controller}>{children}</WatchlistContext>;
}

export function useWatchlistController(): WatchlistController {
  const controller = useContext(WatchlistContext);
  if (!controller) throw new Error('useWatchlistController must be used inside <WatchlistProvider>');
  return controller;
}

export function useWatchlistState(): WatchlistState {
  const controller = useWatchlistController();
  return useSyncExternalStore(controller.subscribe, controller.getState);
}
