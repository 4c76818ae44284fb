import type { WatchlistController, WatchlistState } from '../store/watchlist-state.ts';
import { useAppStores } from './AppProviders.tsx';
import { useStore } from './use-store.ts';

export const useWatchlistController = (): WatchlistController => useAppStores().watchlist;

export function useWatchlistState(): WatchlistState {
  const controller = useWatchlistController();
  return useStore({ get: controller.getState, subscribe: controller.subscribe });
}
