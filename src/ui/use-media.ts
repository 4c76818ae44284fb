import { useEffect, useState } from 'react';

/** Whether a media query matches, following it as it changes (a rotated phone, a window resized, a mouse plugged in). */
export function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof matchMedia === 'function' && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const list = matchMedia(query);
    const change = () => setMatches(list.matches);
    list.addEventListener('change', change);
    change();
    return () => list.removeEventListener('change', change);
  }, [query]);
  return matches;
}
