import { useId, useState } from 'react';

/** The links themselves, to copy or share: the way when no camera is at hand. */
export function CopyLinks({ links }: { links: readonly string[] }) {
  const [said, setSaid] = useState('');
  const fieldId = useId();
  const text = links.join('\n');
  const many = links.length > 1;
  const canShare = typeof navigator.share === 'function';

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setSaid(many ? `${links.length} links copied.` : 'Link copied.');
    } catch {
      setSaid('This browser did not allow copying: select the text above and copy it yourself.');
    }
  }

  async function share() {
    try {
      await navigator.share({ title: 'Stacks Watch list', text });
    } catch {
      setSaid('');
    }
  }

  return (
    <div className="copy-links">
      <label htmlFor={fieldId}>{many ? `The same as ${links.length} links` : 'The same as a link'}</label>
      <textarea
        id={fieldId}
        readOnly
        rows={many ? 4 : 3}
        value={text}
        spellCheck={false}
        onFocus={(event) => event.target.select()}
      />
      <div className="button-row">
        <button type="button" onClick={() => void copy()}>
          {many ? 'Copy the links' : 'Copy the link'}
        </button>
        {canShare && (
          <button type="button" onClick={() => void share()}>
            Share…
          </button>
        )}
      </div>
      <p role="status" className="note">
        {said}
      </p>
    </div>
  );
}
