import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { NodeChoices } from '../domain/node-settings.ts';
import type { NodeSettingsStore } from '../store/node-settings-store.ts';

const SettingsContext = createContext<NodeSettingsStore | null>(null);

export function SettingsProvider({ store, children }: { store: NodeSettingsStore; children: ReactNode }) {
  return <SettingsContext value={store}>{children}</SettingsContext>;
}

export function useNodeSettings(): { choices: NodeChoices; save(choices: NodeChoices): Promise<void> } {
  const store = useContext(SettingsContext);
  if (!store) throw new Error('useNodeSettings must be used inside <SettingsProvider>');
  const choices = useSyncExternalStore(store.subscribe, store.get);
  return { choices, save: (next) => store.save(next) };
}
