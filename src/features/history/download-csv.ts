/** Hands a CSV to the browser as a file download. */
export function downloadCsv(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "about 3 min left", "under a minute left". */
export function timeLeft(seconds: number | null): string {
  if (seconds === null) return 'counting what is left…';
  if (seconds < 60) return 'under a minute left';
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `about ${minutes} min left` : `about ${Math.round(minutes / 60)} h left`;
}
