import { withByteOrderMark } from '../../domain/history/csv-text.ts';

/** Hands a CSV to the browser as a file download. */
export function downloadCsv(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Saves a CSV as a file, with UTF-8's byte-order mark unless the user turned it off. */
export const saveCsvFile = (text: string, name: string, bom: boolean): void =>
  downloadCsv(bom ? withByteOrderMark(text) : text, name);

/** "about 3 min left", "under a minute left". */
export function timeLeft(seconds: number | null): string {
  if (seconds === null) return 'counting what is left…';
  if (seconds < 60) return 'under a minute left';
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `about ${minutes} min left` : `about ${Math.round(minutes / 60)} h left`;
}
