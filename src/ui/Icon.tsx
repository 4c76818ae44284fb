/** A line icon drawn inline (no icon font, nothing to download); decorative: its control has a name. */
export function Icon({ path, size = 22, bold = false }: { path: string; size?: number; bold?: boolean }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={bold ? 3.5 : 2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={path} />
    </svg>
  );
}
