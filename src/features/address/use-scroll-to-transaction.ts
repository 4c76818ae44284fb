import { useEffect } from 'react';
import { usePathname } from '../../app/router.ts';

/** Brings the transaction named by a `#tx-…` fragment (an alert's link) into view once it is on the page. */
export function useScrollToTransaction(): void {
  const pathname = usePathname();
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (!id.startsWith('tx-')) return;
    const show = (): boolean => {
      const row = document.getElementById(id);
      if (!row) return false;
      row.scrollIntoView({ block: 'center' });
      row.classList.add('highlight');
      return true;
    };
    if (show()) return;
    // The activity list may still be loading.
    const observer = new MutationObserver(() => show() && observer.disconnect());
    observer.observe(document.body, { childList: true, subtree: true });
    const stop = setTimeout(() => observer.disconnect(), 10_000);
    return () => {
      observer.disconnect();
      clearTimeout(stop);
    };
  }, [pathname]);
}
