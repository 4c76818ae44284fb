import { useEffect, type RefObject } from 'react';

/** The CSS variable the page's end and its scroll padding read (layout.css): how much of the bottom `stack` hides. */
export const BOTTOM_ROOM_VARIABLE = '--bottom-stack-room';

/**
 * Keeps the page's end clear of what floats at the bottom: the room the stack takes (its height and its distance
 * from the bottom edge, 0 while it is empty) is told to the page, which leaves that much below its last content and
 * scrolls a focused control no lower than the stack's top. When the stack grows while the end of the page is in
 * sight (the update bar arrives as the user reads the last rows), the page moves up by what it would hide there: the
 * last controls stay in view and in reach, never under the bar until the user thinks of scrolling. A toast alone does
 * not move a screen seen from its top.
 */
export function useBottomRoom(stack: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = stack.current;
    const main = document.querySelector('main');
    if (!element || !main || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const measure = () => {
      const box = element.getBoundingClientRect();
      // Where the page's content ends on screen (above the room left below it), read before it takes the new room.
      const end = main.getBoundingClientRect().bottom - parseFloat(getComputedStyle(main).paddingBottom);
      root.style.setProperty(BOTTOM_ROOM_VARIABLE, `${box.height > 0 ? Math.ceil(innerHeight - box.top) : 0}px`);
      // How far that end now reaches under the stack and the gap above it (the page's scroll padding, layout.css).
      const hidden = end - innerHeight + parseFloat(getComputedStyle(root).scrollPaddingBottom);
      // A toast alone, over a screen seen from its top (just opened, all of it in sight), leaves it put: its heading
      // and first controls stay where they were, the toast goes in seconds, and the room below lets the last row be
      // scrolled clear. What stays (the update bar, the Undo), or a reader scrolled down to the end, moves the page.
      const staying = element.querySelector('.update-prompt, .undo-bar') !== null;
      if (end <= innerHeight && hidden > 0 && (scrollY > 0 || staying)) scrollBy(0, hidden);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(BOTTOM_ROOM_VARIABLE);
    };
  }, [stack]);
}
