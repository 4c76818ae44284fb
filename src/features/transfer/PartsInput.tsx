import { useId, useState } from 'react';
import { missingParts, type SharePart } from '../../domain/watch/share-code.ts';
import { canScanQr } from '../watchlist/can-scan-qr.ts';
import { QrScanner } from '../watchlist/QrScanner.tsx';

const list = (numbers: readonly number[]): string =>
  numbers.length <= 1 ? `${numbers[0] ?? ''}` : `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;

/** Reads the codes, by the camera where the browser can, or from pasted links; says which are still missing. */
export function PartsInput({ parts, onRead }: { parts: readonly SharePart[]; onRead: (texts: string[]) => void }) {
  const [scanning, setScanning] = useState(false);
  const [pasted, setPasted] = useState('');
  const fieldId = useId();
  const total = parts[0]?.total ?? 0;
  const missing = missingParts(parts);
  const scanner = canScanQr();

  return (
    <div className="parts-input">
      {total > 0 ? (
        <p role="status" className="parts-progress">
          <strong>
            {total - missing.length} of {total} codes read.
          </strong>{' '}
          Still to read: {missing.length === 1 ? `code ${missing[0]}.` : `codes ${list(missing)}, in any order.`}
        </p>
      ) : (
        <p className="note">
          On the other device, open Settings → Move to another device, then scan its code here, or open or paste its
          link.
        </p>
      )}
      {scanner &&
        (scanning ? (
          <QrScanner
            decode={(text) => text}
            instead="Paste the links instead."
            onFound={(text) => onRead([text])}
            onClose={() => setScanning(false)}
          />
        ) : (
          <div className="button-row">
            <button type="button" onClick={() => setScanning(true)}>
              {total > 0 ? 'Scan the next code' : 'Scan a code'}
            </button>
          </div>
        ))}
      <form
        className="paste-links"
        onSubmit={(event) => {
          event.preventDefault();
          const texts = pasted.split(/\s+/).filter(Boolean);
          if (texts.length === 0) return;
          onRead(texts);
          setPasted('');
        }}
      >
        <label htmlFor={fieldId}>
          {scanner ? 'Or paste' : 'Paste'} {total > 0 ? 'the other links' : 'the link or links'}
        </label>
        <textarea
          id={fieldId}
          rows={3}
          value={pasted}
          spellCheck={false}
          onChange={(event) => setPasted(event.target.value)}
        />
        <div className="button-row">
          <button type="submit">Read the links</button>
        </div>
      </form>
    </div>
  );
}
