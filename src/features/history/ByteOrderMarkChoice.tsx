/** Whether a saved CSV starts with UTF-8's byte-order mark: a spreadsheet opening the file without it garbles “ ” and ☕. */
export function ByteOrderMarkChoice({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="export-bom">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      Mark the file as UTF-8 (a byte-order mark), so that a spreadsheet shows “curly quotes”, accents (é) and emoji (☕)
      right
    </label>
  );
}
