import type { NodeChoices } from '../domain/node-settings.ts';
import { useAppStores } from './AppProviders.tsx';
import { useStore } from './use-store.ts';

export function useNodeSettings(): { choices: NodeChoices; save(choices: NodeChoices): Promise<void> } {
  const { settings } = useAppStores();
  const choices = useStore(settings);
  return { choices, save: (next) => settings.save(next) };
}
