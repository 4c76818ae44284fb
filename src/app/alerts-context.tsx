import type { InboxEntry } from '../domain/alerts/inbox.ts';
import type { AlertSettings, AlertSettingsStore } from '../store/alert-settings-store.ts';
import type { Inbox } from '../store/inbox.ts';
import { useAppStores } from './AppProviders.tsx';
import { useStore } from './use-store.ts';

export function useAlertStores(): { readonly inbox: Inbox; readonly settings: AlertSettingsStore } {
  const { inbox, alertSettings } = useAppStores();
  return { inbox, settings: alertSettings };
}

export const useInboxEntries = (): readonly InboxEntry[] => useStore(useAppStores().inbox.view, (view) => view.entries);

export const useUnreadCount = (): number => useStore(useAppStores().inbox.view, (view) => view.unread);

export const useAlertSettings = (): AlertSettings => useStore(useAppStores().alertSettings);
