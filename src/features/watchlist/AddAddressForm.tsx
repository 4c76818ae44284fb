import { useId, useRef, useState, type FormEvent } from 'react';
import { parsePrincipal } from '../../domain/address.ts';
import { describeAddressError, KIND_LABEL } from '../../domain/address-messages.ts';
import { LABEL_MAX_LENGTH } from '../../domain/label.ts';
import { NETWORK_LABEL, NETWORKS, type Network } from '../../domain/network.ts';
import { useNameResolver } from '../../app/use-name-resolver.ts';
import { useWatchlistController } from '../../app/watchlist-context.tsx';
import type { Principal } from '../../domain/address.ts';

type NetworkChoice = Network | 'any';

export function AddAddressForm() {
  const controller = useWatchlistController();
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [network, setNetwork] = useState<NetworkChoice>('any');
  const [touched, setTouched] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [lookingUp, setLookingUp] = useState<string | null>(null);
  const resolveName = useNameResolver();
  const addressInput = useRef<HTMLInputElement>(null);
  const ids = { address: useId(), label: useId(), network: useId(), feedback: useId() };

  const parsed = parsePrincipal(address, { network: network === 'any' ? undefined : network });
  const bnsName = !parsed.ok && parsed.error.kind === 'name' ? parsed.error.name : null;
  const error = refusal ?? (touched && !parsed.ok && !bnsName ? describeAddressError(parsed.error) : null);

  function watch(principal: Principal, name?: string) {
    const added = controller.add(principal, label, name);
    if (!added.ok) {
      setRefusal(added.error);
      return;
    }
    setAnnouncement(`Now watching ${label.trim() || name || principal.principal}.`);
    setAddress('');
    setLabel('');
    setTouched(false);
    setRefusal(null);
    addressInput.current?.focus();
  }

  async function lookUp(name: string) {
    setLookingUp(name);
    const resolved = await resolveName(name, network === 'any' ? null : network);
    setLookingUp(null);
    if (resolved.ok) watch(resolved.value, name);
    else setRefusal(resolved.error);
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
    watch(parsed.value);
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
            setAddress(event.target.value);
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
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={ids.label}>Label (optional)</label>
          <input
            id={ids.label}
            name="label"
            value={label}
            maxLength={LABEL_MAX_LENGTH}
            onChange={(event) => {
              setLabel(event.target.value);
              setRefusal(null);
            }}
            placeholder="Cold wallet"
            autoComplete="off"
          />
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
      <div id={ids.feedback} className="feedback">
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : lookingUp ? (
          <p className="preview">Looking up {lookingUp}…</p>
        ) : bnsName ? (
          <p className="preview">{bnsName} is a BNS name: Watch looks up the address it belongs to.</p>
        ) : parsed.ok ? (
          <p className="preview">
            <span>
              {NETWORK_LABEL[parsed.value.network]} · {KIND_LABEL[parsed.value.kind]}
            </span>{' '}
            <code className="principal">{parsed.value.principal}</code>
          </p>
        ) : null}
      </div>
      <button type="submit" className="primary" disabled={lookingUp !== null}>
        Watch
      </button>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
    </form>
  );
}
