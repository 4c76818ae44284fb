import { useEffect, useState } from 'react';
import { LOCAL_KEYS } from '../store/keys.ts';

function readLookedAt(): number | null {
  try {
    const value = Number(localStorage.getItem(LOCAL_KEYS.inboxLookedAt));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function saveLookedAt(at: number): void {
  try {
    localStorage.setItem(LOCAL_KEYS.inboxLookedAt, String(at));
  } catch {
    // Storage refused (private mode): the next visit draws no divider, as a first one does.
  }
}

/**
 * When the user last looked at the inbox before this visit (epoch ms; null on a first one), fixed for the visit so
 * that the divider stays where it was drawn. The time is saved as the user leaves: when the screen closes, or the
 * page is hidden (an app put away on a phone is often never closed). localStorage: small, synchronous (the first
 * frame has the divider in place) and harmless to lose.
 */
export function useLastLooked(): number | null {
  const [since] = useState(readLookedAt);
  useEffect(() => {
    const whenHidden = () => {
      if (document.visibilityState === 'hidden') saveLookedAt(Date.now());
    };
    document.addEventListener('visibilitychange', whenHidden);
    return () => {
      document.removeEventListener('visibilitychange', whenHidden);
      saveLookedAt(Date.now());
    };
  }, []);
  return since;
}
