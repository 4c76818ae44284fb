import { useState } from 'react';

/**
 * A card the user closed stays closed on this device. localStorage is enough for a yes/no that is harmless to
 * lose, and it is read synchronously, so the card never flashes before disappearing.
 */
export function useDismissal(key: string): [boolean, () => void] {
  const storageKey = `stacks-watch:dismissed:${key}`;
  const [dismissed, setDismissed] = useState(() => {
    try {
      return localStorage.getItem(storageKey) === '1';
    } catch {
      return false;
    }
  });
  const dismiss = () => {
    setDismissed(true);
    try {
      localStorage.setItem(storageKey, '1');
    } catch {
      // Storage refused (private mode): the card stays closed until the page reloads.
    }
  };
  return [dismissed, dismiss];
}
