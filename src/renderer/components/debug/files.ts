// Reading uploads in the browser for the debugger: a File as text or as base64 (for .ply and
// PNG bytes, which travel inside a LabApi message), and the size check against the message limit.
import { MAX_MESSAGE_BYTES } from '../../../shared/api/messages';

/** Uploads leave this much of a message for the envelope and the other parameters. */
export const UPLOAD_LIMIT = MAX_MESSAGE_BYTES - 64 * 1024;

export async function fileBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** Why an upload of `chars` characters cannot be sent, or null when it fits. */
export function uploadProblem(name: string, chars: number): string | null {
  return chars > UPLOAD_LIMIT ? `${name} is ${(chars / 1e6).toFixed(1)} MB once encoded; a LabApi message holds at most ${(UPLOAD_LIMIT / 1e6).toFixed(1)} MB` : null;
}

/** A PNG data URL's file name for an export: scene, camera and view, filesystem-safe. */
export function exportName(...parts: string[]): string {
  const safe = parts.filter((p) => p.length > 0).map((p) => p.replace(/[^A-Za-z0-9._-]+/g, '_'));
  return `${safe.join('-').slice(0, 120)}.png`;
}
