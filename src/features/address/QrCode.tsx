import { memo, useEffect, useMemo, useState } from 'react';

/**
 * The address as a QR code, drawn from the encoder's matrix; the encoder loads with the page that needs it. Drawn
 * again only when the address changes, not with every block the page shows.
 */
export const QrCode = memo(function QrCode({ text }: { text: string }) {
  const [matrix, setMatrix] = useState<boolean[][] | null>(null);
  useEffect(() => {
    let live = true;
    void import('uqr').then(({ encode }) => live && setMatrix(encode(text, { ecc: 'M', border: 2 }).data));
    return () => {
      live = false;
    };
  }, [text]);
  const cells = useMemo(
    () => matrix?.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x},${y}h1v1h-1z` : ''))).join('') ?? '',
    [matrix],
  );
  if (!matrix) return null;
  const size = matrix.length;
  return (
    <svg
      className="qr"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={`QR code of ${text}`}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={cells} fill="#000" />
    </svg>
  );
});
