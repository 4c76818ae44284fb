import { Suspense, useRef, useState } from 'react';
import { Toasts, UndoBar, UpdatePrompt } from './features.ts';
import { useToast, useToastsAside } from '../app/toast-shown.ts';
import { useUndoOffer } from '../app/undo-offer.ts';
import { useBottomRoom } from './use-bottom-room.ts';

/**
 * Everything that floats at the bottom, in one column so that nothing covers anything else: the update bar on top,
 * then the alert toast, and the Undo nearest the thumb, where it appeared (a toast arriving later never moves it or
 * takes its tap). The page keeps room for it below its end, so that nothing it covers is out of reach.
 */
export function BottomStack() {
  const toast = useToast();
  const aside = useToastsAside();
  // Kept aside while a screen shows what a toast must not cover (a QR code): the inbox has every alert.
  const alerted = toast !== null && !aside;
  const undo = useUndoOffer();
  const [toastsLoaded, setToastsLoaded] = useState(false);
  const stack = useRef<HTMLDivElement>(null);
  useBottomRoom(stack);
  if (alerted && !toastsLoaded) setToastsLoaded(true);
  return (
    <div className="bottom-stack" ref={stack}>
      <UpdatePrompt />
      {/*
        Only the toast's spoken line is in the live region (the newest alert, at most every few seconds): the words on
        screen change with every alert, and a live region around them would read out each one of a flood (a region
        marked "off" inside a polite one is not heard the same way by every screen reader). It is there from the
        start, so that the first alert is announced too.
      */}
      <p className="visually-hidden toast-said" role="status" aria-live="polite">
        {toast?.said ?? ''}
      </p>
      {/* A landmark of its own, which a screen reader can jump to: not live (see above). */}
      <section className="toasts" aria-label="Latest alert" hidden={!alerted}>
        {toastsLoaded && (
          <Suspense fallback={null}>
            <Toasts />
          </Suspense>
        )}
      </section>
      {undo && <UndoBar key={undo.key} offer={undo} />}
    </div>
  );
}
