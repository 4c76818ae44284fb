export type Outcome = {
  /** `note`: done, with something the user should know (a node kept though its network could not be read). */
  readonly kind: 'ok' | 'note' | 'error';
  readonly message: string;
  /** The exact technical cause, folded away under the plain words: for whoever runs the node or the app's server. */
  readonly detail?: string | undefined;
} | null;

/** What the last test or save of a node came to: an alert for an error, a status otherwise. */
export function NodeOutcome({ outcome }: { outcome: Outcome }) {
  const detail = outcome?.detail && (
    <details className="node-detail">
      <summary>Technical detail</summary>
      <p>{outcome.detail}</p>
    </details>
  );
  if (outcome?.kind === 'error')
    return (
      <>
        <p role="alert" className="error">
          {outcome.message}
        </p>
        {detail}
      </>
    );
  return (
    <>
      <p role="status" className={outcome?.kind === 'note' ? 'note node-note' : 'note'}>
        {outcome?.message ?? ''}
      </p>
      {detail}
    </>
  );
}
