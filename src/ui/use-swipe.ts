import { useRef, type PointerEvent } from 'react';

/** How far a finger must travel sideways for a swipe to count (and not be a wobbly tap or a scroll). */
export const SWIPE_PX = 72;

/**
 * A sideways swipe on a touch screen: right and left each call their action once the finger lifts past `SWIPE_PX`.
 * The row follows the finger meanwhile; vertical scrolling stays the browser's (`touch-action: pan-y` in CSS).
 * Mouse and pen are left alone: they have the buttons, which are the swipe's equivalents for everyone.
 */
export function useSwipe(onRight: () => void, onLeft: () => void) {
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  const move = (element: HTMLElement, dx: number) => {
    element.style.transform = dx === 0 ? '' : `translateX(${dx}px)`;
  };
  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.pointerType !== 'touch') return;
      start.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
    },
    onPointerMove(event: PointerEvent<HTMLElement>) {
      const from = start.current;
      if (!from || from.id !== event.pointerId) return;
      move(event.currentTarget, event.clientX - from.x);
    },
    onPointerUp(event: PointerEvent<HTMLElement>) {
      const from = start.current;
      start.current = null;
      move(event.currentTarget, 0);
      if (!from || from.id !== event.pointerId) return;
      const [dx, dy] = [event.clientX - from.x, event.clientY - from.y];
      if (Math.abs(dx) < SWIPE_PX || Math.abs(dy) > Math.abs(dx)) return;
      if (dx > 0) onRight();
      else onLeft();
    },
    onPointerCancel(event: PointerEvent<HTMLElement>) {
      start.current = null;
      move(event.currentTarget, 0);
    },
  };
}
