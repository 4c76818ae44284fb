import { useId, useState } from 'react';
import { shortPrincipal } from '../../domain/text/activity-text.ts';
import type { Naming } from '../../domain/text/effect-text.ts';
import { LOOKALIKE_EXPLANATION, type PoisoningSuspect } from '../../domain/address/lookalike.ts';

/** The flag on a transaction from a lookalike address, with how the comparison works a press away. */
export function PoisoningWarning({
  suspect,
  naming,
  full,
}: {
  suspect: PoisoningSuspect;
  naming: Naming;
  full?: boolean;
}) {
  const [explained, setExplained] = useState(false);
  const id = useId();
  return (
    <div className="poisoning-warning" role="note" data-poisoning={suspect.sender}>
      <strong>Possible address-poisoning:</strong> {shortPrincipal(suspect.sender)} looks like{' '}
      {naming.party(suspect.imitates)}
      {full && (
        <>
          {' '}
          — sent by <code className="principal">{suspect.sender}</code>, not{' '}
          <code className="principal">{suspect.imitates}</code>. Never copy an address from this transaction.
        </>
      )}{' '}
      <button
        type="button"
        className="link-button"
        aria-expanded={explained}
        aria-controls={id}
        onClick={() => setExplained((was) => !was)}
      >
        How is this decided?
      </button>
      {explained && (
        <p id={id} className="note">
          {LOOKALIKE_EXPLANATION}
        </p>
      )}
    </div>
  );
}
