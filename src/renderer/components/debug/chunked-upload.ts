// Chunked upload of a splat file to the debugger (browser mode has no file paths): the file is
// read slice by slice (never whole), each slice sent as base64 through debug.upload.put, with
// progress after each and cancellation between them (the lab drops the staged part).
// Inputs: the LabApi, a File, callbacks. Output: the upload id to open. Invariant: a cancelled
// or failed upload is removed on the lab's side before the promise settles.
import type { LabApi } from '../../../shared/api/lab';

export interface UploadProgress {
  sent: number;
  total: number;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

export async function uploadInChunks(api: LabApi, file: File, onProgress: (p: UploadProgress) => void, signal: AbortSignal): Promise<string> {
  const { uploadId, chunkBytes } = await api.call('debug.upload.begin', { name: file.name, bytes: file.size });
  try {
    for (let at = 0; at < file.size; at += chunkBytes) {
      if (signal.aborted) throw new Error('upload cancelled');
      const slice = new Uint8Array(await file.slice(at, Math.min(file.size, at + chunkBytes)).arrayBuffer());
      const r = await api.call('debug.upload.put', { uploadId, offset: at, data: base64(slice) });
      onProgress({ sent: r.received, total: r.bytes });
    }
    return uploadId;
  } catch (error) {
    await api.call('debug.upload.cancel', { uploadId }).catch(() => undefined);
    throw error;
  }
}
