import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { InboxEntry } from '../domain/alerts/inbox.ts';
import type { AlertSettings, AlertSettingsStore } from '../store/alert-settings-store.ts';
import type { Inbox } from '../store/inbox.ts';

interface AlertStores {
  readonly inbox: Inbox;
  readonly settings: AlertSettingsStore;
}

const AlertsContext = createContext<AlertStores | null>(null);

export function AlertsProvider({ inbox, settings, children }: AlertStores & { children: ReactNode }) {
  return <AlertsContext value={{ inbox, settings }}>{children}</AlertsContext>;
}

export function useAlertStores(): AlertStores {
  const stores = useContext(AlertsContext);
  if (!stores) throw new Error('useAlertStores must be used inside <AlertsProvider>');
  return stores;
}

export function useInboxEntries(): readonly InboxEntry[] {
  const { inbox } = useAlertStores();
  return useSyncExternalStore(inbox.subscribe, inbox.list);
}

export function useUnreadCount(): number {
  const { inbox } = useAlertStores();
  return useSyncExternalStore(inbox.subscribe, inbox.unread);
}

export function useAlertSettings(): AlertSettings {
  const { settings } = useAlertStores();
  return useSyncExternalStore(settings.subscribe, settings.get);
}
