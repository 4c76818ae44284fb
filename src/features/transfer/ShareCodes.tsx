import { useMemo, useState } from 'react';
import { useAlertSettings } from '../../app/alerts-context.tsx';
import { RECEIVE_PATH } from '../../app/router.ts';
import { useKeepToastsAside } from '../../app/toast-shown.ts';
import { useWatchlistState } from '../../app/watchlist-context.tsx';
import { isLoopbackHost } from '../../domain/loopback.ts';
import { rulesKey } from '../../domain/watch/list-transfer.ts';
import { shareFragments } from '../../domain/watch/share-code.ts';
import { CopyLinks } from './CopyLinks.tsx';
import { ShareQr } from './ShareQr.tsx';

/** The list as one code, or a sequence the user steps through ("Code 2 of 3"), and the same as links. */
export function ShareCodes({ onClose }: { onClose: () => void }) {
  // A toast would cover part of the code the other device's camera reads.
  useKeepToastsAside();
  const state = useWatchlistState();
  const { rules } = useAlertSettings();
  const links = useMemo(() => {
    const entries = state.status === 'ready' ? state.entries : [];
    const items = entries.map((entry) => ({ entry, rules: rules[rulesKey(entry)] ?? null }));
    return shareFragments(items).map((fragment) => `${window.location.origin}${RECEIVE_PATH}#${fragment}`);
  }, [state, rules]);
  const [shown, setShown] = useState(0);
  const at = Math.min(shown, links.length - 1);
  const total = links.length;
  const link = links[at] ?? '';

  // Served from this computer only, the links name its own address: the camera app of a phone opens nothing there.
  const here = isLoopbackHost(window.location.hostname) ? window.location.host : null;

  return (
    <div className="share-codes">
      {here && (
        <p className="note share-loopback">
          <strong>A phone’s camera cannot open these links:</strong> this app is open at {here}, this computer’s own
          address, which no other device reaches. On the other device, open Stacks Watch, choose Add address → Add from
          another device, and scan the code or paste the link there.
        </p>
      )}
      {total > 1 && (
        <p className="share-step" aria-live="polite">
          <strong>
            Code {at + 1} of {total}
          </strong>{' '}
          — the list is too long for one code: scan them all, in any order, with “Add from another device” on the other
          device.
        </p>
      )}
      <div className="share-code">
        <ShareQr
          text={link}
          label={total > 1 ? `QR code ${at + 1} of ${total} of your list` : 'QR code of your list'}
        />
      </div>
      {total > 1 && (
        <div className="button-row share-nav">
          <button type="button" disabled={at === 0} onClick={() => setShown(at - 1)}>
            ‹ Previous code
          </button>
          <button type="button" disabled={at === total - 1} onClick={() => setShown(at + 1)}>
            Next code ›
          </button>
        </div>
      )}
      <CopyLinks links={links} />
      <div className="button-row">
        <button type="button" onClick={onClose}>
          Hide the code
        </button>
      </div>
    </div>
  );
}
