import { Suspense, useRef, useState } from 'react';
import { Toasts, UndoBar, UpdatePrompt } from './features.ts';
import { useToast } from '../app/toast-shown.ts';
import { useUndoOffer } from '../app/undo-offer.ts';
import { useBottomRoom } from './use-bottom-room.ts';

/**
 * Everything that floats at the bottom, in one column so that nothing covers anything else: the update bar on top,
 * then the alert toast, and the Undo nearest the thumb, where it appeared (a toast arriving later never moves it or
 * takes its tap). The page keeps room for it below its end, so that nothing it covers is out of reach.
 */
export function BottomStack() {
  const alerted = useToast() !== null;
  const undo = useUndoOffer();
  const [toastsLoaded, setToastsLoaded] = useState(false);
  const stack = useRef<HTMLDivElement>(null);
  useBottomRoom(stack);
  if (alerted && !toastsLoaded) setToastsLoaded(true);
  return (
    <div className="bottom-stack" ref={stack}>
      <UpdatePrompt />
      {/* The live region is there from the start, so that screen readers announce the first alert too. */}
      <div className="toasts" role="status" aria-live="polite">
        {toastsLoaded && (
          <Suspense fallback={null}>
            <Toasts />
          </Suspense>
        )}
      </div>
      {undo && <UndoBar key={undo.key} offer={undo} />}
    </div>
  );
}
