import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { parsePrincipal } from '../../domain/address/address.ts';
import { addressInInput, NO_ADDRESS_IN_LINK } from '../../domain/address/address-in-link.ts';
import { describeAddressError, respellingReason } from '../../domain/address/address-messages.ts';
import { KIND_LABEL } from '../../domain/address/kind-label.ts';
import { middleEllipsis } from '../../domain/address/middle-ellipsis.ts';
import { keptLabelInput } from './label-input.ts';
import { LabelLimit } from './LabelLimit.tsx';
import { NETWORK_LABEL, NETWORKS, type Network } from '../../domain/network.ts';
import { useContractCheck } from '../../app/use-contract-check.ts';
import { useNameBook } from '../../app/name-context.tsx';
import { useNameResolver } from '../../app/use-name-resolver.ts';
import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { describeDuplicate, indexOfPrincipal } from '../../domain/watch/watchlist.ts';
import type { Principal, TypedPrincipal } from '../../domain/address/address.ts';
import { Icon } from '../../ui/Icon.tsx';
import { SCAN_ICON } from '../../ui/icons-extra.ts';
import { canScanQr } from './can-scan-qr.ts';

type NetworkChoice = Network | 'any';

/** A pause this long in typing is taken as "done for now": what is wrong with the address is said then. */
export const TYPING_PAUSE_MS = 900;

const QrScanner = lazy(() => import('./QrScanner.tsx').then((module) => ({ default: module.QrScanner })));

/**
 * The add-address form (inside the sheet): what it added is told to `onAdded` ("Now watching Treasury."), which closes
 * the sheet; `worthShowing` where the sentence says more than the new row does (an address typed in lower case was
 * saved in capitals).
 */
export function AddAddressForm({ onAdded }: { onAdded: (said: string, worthShowing: boolean) => void }) {
  const controller = useWatchlistController();
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [network, setNetwork] = useState<NetworkChoice>('any');
  const [touched, setTouched] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [scanning, setScanning] = useState(false);
  const [lookingUp, setLookingUp] = useState<string | null>(null);
  const resolveName = useNameResolver();
  const checkContract = useContractCheck();
  /** The contract principal the user was told has no contract: a second Watch adds it all the same. */
  const [toldMissing, setToldMissing] = useState<string | null>(null);
  const addressInput = useRef<HTMLInputElement>(null);
  const ids = { address: useId(), label: useId(), labelLimit: useId(), network: useId(), feedback: useId() };

  // The address itself, or the one in a pasted payment link or explorer link.
  const read = addressInInput(address);
  const parsed = parsePrincipal(read.text ?? '', { network: network === 'any' ? undefined : network });
  const bnsName = !parsed.ok && parsed.error.kind === 'name' ? parsed.error.name : null;
  const state = useWatchlistState();
  const book = useNameBook();
  const entries = state.status === 'ready' ? state.entries : [];
  // Already on the list: said after the same pause as a wrong address, not only once Watch is pressed.
  const duplicateAt = parsed.ok ? indexOfPrincipal(entries, parsed.value.principal) : -1;
  const duplicate =
    touched && duplicateAt >= 0
      ? describeDuplicate(
          { kind: 'duplicate', existing: entries[duplicateAt]!, position: duplicateAt + 1 },
          book?.get(entries[duplicateAt]!.principal) ?? null,
        )
      : null;
  const wrong =
    read.text === null ? NO_ADDRESS_IN_LINK : !parsed.ok && !bnsName ? describeAddressError(parsed.error) : null;
  const error = refusal ?? (touched ? wrong : null) ?? duplicate;
  useEffect(() => {
    if (touched || address.trim() === '') return;
    const timer = setTimeout(() => setTouched(true), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [address, touched]);

  function watch(principal: Principal | TypedPrincipal, name?: string) {
    const added = controller.add(principal, label, name);
    if (!added.ok) {
      // Already on the list (typed as a BNS name, or another tab added it): named as the list names it.
      const at = indexOfPrincipal(entries, principal.principal);
      const existing = entries[at];
      setRefusal(
        existing
          ? describeDuplicate({ kind: 'duplicate', existing, position: at + 1 }, book?.get(existing.principal) ?? null)
          : added.error,
      );
      return;
    }
    setAddress('');
    setLabel('');
    setTouched(false);
    setRefusal(null);
    setToldMissing(null);
    const named = label.trim() || name;
    const respelled = 'respelled' in principal ? principal.respelled : null;
    if (!respelled) onAdded(`Now watching ${named || principal.principal}.`, false);
    else {
      // Short, as its new row shows it (the form showed it whole); on one line (word joiners around the "…").
      const short = middleEllipsis(principal.principal).replace('…', '\u2060…\u2060');
      const saved = `Saved as ${short} — ${respellingReason(respelled)}.`;
      onAdded(named ? `Now watching ${named}. ${saved}` : saved, true);
    }
  }

  async function lookUp(name: string) {
    setLookingUp(name);
    const resolved = await resolveName(name, network === 'any' ? null : network);
    setLookingUp(null);
    if (resolved.ok) watch(resolved.value, name);
    else setRefusal(resolved.error);
  }

  /** A contract principal where nothing is deployed would sit at 0.00 STX for ever: the node is asked first. */
  async function watchContract(principal: TypedPrincipal) {
    setLookingUp(principal.principal);
    const presence = await checkContract(principal.principal, principal.network);
    setLookingUp(null);
    if (presence !== 'missing') return watch(principal);
    setToldMissing(principal.principal);
    setRefusal(
      `No contract deployed at ${principal.principal} on ${NETWORK_LABEL[principal.network]}, says its node. ` +
        'Check the contract name, or press Watch again to watch it anyway.',
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (bnsName) {
      void lookUp(bnsName);
      return;
    }
    if (!parsed.ok) {
      addressInput.current?.focus();
      return;
    }
    if (parsed.value.kind === 'contract' && toldMissing !== parsed.value.principal) void watchContract(parsed.value);
    else watch(parsed.value);
  }

  return (
    <form className="add-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={ids.address}>Address to watch (or a BNS name)</label>
        <input
          ref={addressInput}
          id={ids.address}
          name="address"
          value={address}
          onChange={(event) => {
            // A new attempt: the last error is cleared until a pause in typing, the next Watch or leaving the field.
            setAddress(event.target.value);
            setTouched(false);
            setRefusal(null);
          }}
          onBlur={() => setTouched(address.trim() !== '')}
          placeholder="SP…, ST… or name.btc"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={ids.feedback}
        />
        {/* Beside the field it is about, not under the Network select. */}
        <div id={ids.feedback} className="feedback">
          {error ? (
            <p role="alert" className="error">
              {error}
            </p>
          ) : lookingUp ? (
            <p className="preview">
              {lookingUp.includes('.') && !bnsName
                ? `Checking ${lookingUp} with its node…`
                : `Looking up ${lookingUp}…`}
            </p>
          ) : bnsName ? (
            <p className="preview">{bnsName} is a BNS name: Watch looks up the address it belongs to.</p>
          ) : parsed.ok ? (
            <p className="preview">
              <span>
                {read.source !== 'typed' && `From the ${read.source}: `}
                {NETWORK_LABEL[parsed.value.network]} · {KIND_LABEL[parsed.value.kind]}
              </span>{' '}
              {parsed.value.respelled ? (
                // Said before Watch, and again once saved: the field keeps what was typed, the list the canonical form.
                <span className="respelled">
                  Watch saves it as <code className="principal">{parsed.value.principal}</code> —{' '}
                  {respellingReason(parsed.value.respelled)}.
                </span>
              ) : (
                <code className="principal">{parsed.value.principal}</code>
              )}
            </p>
          ) : null}
        </div>
        {canScanQr() && !scanning && (
          <button type="button" className="scan-button" onClick={() => setScanning(true)}>
            <Icon path={SCAN_ICON} size={18} /> Scan a QR code
          </button>
        )}
        {scanning && (
          <Suspense fallback={<p className="note">Opening the camera…</p>}>
            <QrScanner
              onFound={(text) => {
                setScanning(false);
                setAddress(text);
                setTouched(true);
                addressInput.current?.focus();
              }}
              onClose={() => setScanning(false)}
            />
          </Suspense>
        )}
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={ids.label}>Label (optional)</label>
          <input
            id={ids.label}
            name="label"
            value={label}
            onChange={(event) => {
              setLabel(keptLabelInput(label, event.target));
              setRefusal(null);
            }}
            placeholder="Cold wallet"
            autoComplete="off"
            aria-describedby={ids.labelLimit}
          />
          <LabelLimit id={ids.labelLimit} label={label} />
        </div>
        <div className="field">
          <label htmlFor={ids.network}>Network</label>
          <select
            id={ids.network}
            value={network}
            onChange={(event) => setNetwork(event.target.value as NetworkChoice)}
          >
            <option value="any">From the address</option>
            {NETWORKS.map((value) => (
              <option key={value} value={value}>
                {NETWORK_LABEL[value]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" className="primary" disabled={lookingUp !== null}>
        Watch
      </button>
    </form>
  );
}
