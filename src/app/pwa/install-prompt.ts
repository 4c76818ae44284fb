import { createStore } from '../../domain/create-store.ts';
import { useStore } from '../use-store.ts';

/** Chromium's install offer, held until the user presses Install. Not in the DOM typings. */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

const offer = createStore<BeforeInstallPromptEvent | null>(null);

export function listenForInstallOffer(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    offer.set(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => offer.set(null));
}

/** Whether the browser offers installation now; a component re-renders when that changes. */
export const useCanInstall = (): boolean => useStore(offer, (current) => current !== null);

export async function promptInstall(): Promise<void> {
  const current = offer.get();
  if (!current) return;
  offer.set(null);
  await current.prompt();
}
