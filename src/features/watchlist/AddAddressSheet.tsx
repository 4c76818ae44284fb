import './add-sheet.css';
import { useEffect, useRef } from 'react';
import { navigate, RECEIVE_PATH } from '../../app/router.ts';
import { Icon } from '../../ui/Icon.tsx';
import { CLOSE_ICON } from '../../ui/icons-extra.ts';
import { AddAddressForm } from './AddAddressForm.tsx';

/**
 * The add form in a modal sheet (a native dialog: focus is trapped and returns to the opener, Escape closes it).
 * It slides up from the bottom on a phone and sits centred on a wider screen.
 */
export function AddAddressSheet({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (said: string, worthShowing: boolean) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      // jsdom and old browsers have no showModal: the open attribute still shows the form.
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
      // A dialog opens on its first control, here the Close: the user came to type an address.
      element.querySelector<HTMLInputElement>('input[name="address"]')?.focus();
    } else if (!open && element.open) {
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
    }
  }, [open]);
  return (
    <dialog ref={dialog} className="sheet" aria-labelledby="add-sheet-heading" onClose={onClose}>
      <div className="sheet-head">
        <h2 id="add-sheet-heading">Add to your watch list</h2>
        <button type="button" className="quiet icon-button" aria-label="Close" onClick={onClose}>
          <Icon path={CLOSE_ICON} />
        </button>
      </div>
      <div className="sheet-body">
        {open && <AddAddressForm onAdded={onAdded} />}
        <p className="sheet-aside">
          Your list is on another device?{' '}
          <a
            href={RECEIVE_PATH}
            onClick={(event) => {
              event.preventDefault();
              onClose();
              navigate(RECEIVE_PATH);
            }}
          >
            Add from another device
          </a>
        </p>
      </div>
    </dialog>
  );
}
