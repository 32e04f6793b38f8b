// Saves a file in the browser (Blob + a[download]): a server export read as a blob (every
// matching row).

/** Starts a download of a blob as filename. */
export function downloadBlob(filename: string, blob: Blob): void {
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

/** Reads a server export whole and saves it as filename (an ApiError or a cut stream throws). */
export async function downloadResponse(filename: string, response: Response): Promise<void> {
  const blob = await response.blob();
  downloadBlob(filename, blob.type ? blob : new Blob([blob], { type: 'text/csv;charset=utf-8' }));
}
