import { useEffect, useRef, type RefObject } from 'react';
import { usePathname } from '../app/router.ts';

/**
 * Closes a popover the way people expect: Escape (focus goes back to its button), a tap or click anywhere outside
 * it and its button, or moving to another screen. Listens only while it is open.
 */
export function useDismiss(
  open: boolean,
  close: () => void,
  inside: readonly RefObject<HTMLElement | null>[],
  returnFocusTo?: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      returnFocusTo?.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (!inside.some((ref) => target && ref.current?.contains(target))) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close, inside, returnFocusTo]);
  const pathname = usePathname();
  const openedOn = useRef(pathname);
  useEffect(() => {
    if (open && openedOn.current !== pathname) close();
    openedOn.current = pathname;
  }, [open, close, pathname]);
}
