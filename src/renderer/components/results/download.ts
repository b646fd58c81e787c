// Saves text as a file through a blob URL and a temporary link: a download in a browser, and the
// same in the Electron window (which shows its own save prompt), so no save dialog code is needed.
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(filename, new Blob([text], { type }));
}

export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Bytes of `text` once JSON-encoded (how it travels in a LabApi message). */
export function messageBytes(text: string): number {
  return new TextEncoder().encode(JSON.stringify(text)).byteLength;
}
