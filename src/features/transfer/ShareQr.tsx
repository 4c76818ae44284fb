import { memo, useEffect, useMemo, useState } from 'react';

/** The widest a code may be drawn at a whole number of pixels a module: it fits a 390 px phone's card. */
const MAX_PX = 300;

/**
 * One code of the list. Each module is a whole number of CSS pixels and each row one run of paths, so that no seam
 * between modules confuses a camera; the encoder loads with the code.
 */
export const ShareQr = memo(function ShareQr({ text, label }: { text: string; label: string }) {
  const [matrix, setMatrix] = useState<boolean[][] | null>(null);
  useEffect(() => {
    let live = true;
    void import('uqr').then(({ encode }) => live && setMatrix(encode(text, { ecc: 'L', border: 4 }).data));
    return () => {
      live = false;
    };
  }, [text]);
  const path = useMemo(() => (matrix ? runs(matrix) : ''), [matrix]);
  if (!matrix) return null;
  const size = matrix.length;
  const px = size * Math.max(1, Math.floor(MAX_PX / size));
  return (
    <svg
      className="share-qr"
      width={px}
      height={px}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
});

function runs(matrix: readonly (readonly boolean[])[]): string {
  let path = '';
  matrix.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (row[x]) x++;
      path += `M${start},${y}h${x - start}v1h${start - x}z`;
    }
  });
  return path;
}
