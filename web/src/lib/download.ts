// Saves text the browser already holds as a CSV file (Blob + a[download]).

/** Starts a download of text as filename; does nothing when there is no text. */
export function downloadCsv(filename: string, text: string): void {
  if (!text) return;
  const blob = new Blob([text], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
