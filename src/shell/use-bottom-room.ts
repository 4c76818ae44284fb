import { useEffect, type RefObject } from 'react';

/** The CSS variable the page's end and its scroll padding read (layout.css): how much of the bottom `stack` hides. */
export const BOTTOM_ROOM_VARIABLE = '--bottom-stack-room';

/**
 * Keeps the page's end clear of what floats at the bottom: the room the stack takes (its height and its distance
 * from the bottom edge, 0 while it is empty) is told to the page, which leaves that much below its last content and
 * scrolls a focused control no lower than the stack's top.
 */
export function useBottomRoom(stack: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = stack.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const measure = () => {
      const box = element.getBoundingClientRect();
      const room = box.height > 0 ? Math.ceil(window.innerHeight - box.top) : 0;
      root.style.setProperty(BOTTOM_ROOM_VARIABLE, `${room}px`);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(BOTTOM_ROOM_VARIABLE);
    };
  }, [stack]);
}
